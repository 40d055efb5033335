/**
 * Whether every field `desired` sets has the same value in `live`: objects by key (extra keys
 * in `live` are fine: defaults, status, fields of other managers), arrays element-wise with the
 * same length (an extra or missing element is drift), scalars strictly equal. This is how the
 * operator tells that an object it applied is still as it left it, without a write.
 */
export function isSubsetOf(desired: unknown, live: unknown): boolean {
  if (Array.isArray(desired)) {
    return (
      Array.isArray(live) &&
      live.length === desired.length &&
      desired.every((element, at) => isSubsetOf(element, live[at]))
    );
  }
  if (isPlainObject(desired)) {
    if (!isPlainObject(live)) return false;
    return Object.entries(desired).every(
      // A field set to undefined is not sent on the wire: nothing to compare.
      ([key, value]) => value === undefined || isSubsetOf(value, live[key]),
    );
  }
  return desired === live;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
