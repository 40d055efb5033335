/** Positions of items whose key repeats an earlier one, with the earlier position. */
export function duplicatePositions<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
): { at: number; first: number }[] {
  const seen = new Map<string, number>();
  const duplicates: { at: number; first: number }[] = [];
  items.forEach((item, at) => {
    const key = keyOf(item);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, at);
    else duplicates.push({ at, first });
  });
  return duplicates;
}
