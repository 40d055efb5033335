/**
 * Equality of API objects as the API server sees them, i.e. as JSON on the wire: object key
 * order does not matter (a server may hand keys back in another order than we built them), a
 * member whose value is undefined is absent (JSON.stringify drops it), `null` is a value of its
 * own, and array order matters. For plain JSON data: objects as parsed, cached or built.
 */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && sameItems(left, right);
  }
  return sameMembers(left as Record<string, unknown>, right as Record<string, unknown>);
}

/** In a JSON array an undefined item is written as null. */
function sameItems(left: readonly unknown[], right: readonly unknown[]): boolean {
  return left.length === right.length && left.every((item, at) => jsonEqual(item ?? null, right[at] ?? null));
}

function sameMembers(left: Record<string, unknown>, right: Record<string, unknown>): boolean {
  const leftKeys = presentKeys(left);
  if (leftKeys.length !== presentKeys(right).length) return false;
  return leftKeys.every((key) => right[key] !== undefined && jsonEqual(left[key], right[key]));
}

function presentKeys(object: Record<string, unknown>): string[] {
  return Object.keys(object).filter((key) => object[key] !== undefined);
}
