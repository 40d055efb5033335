import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { ListSemantics } from "../resource-type.js";
import { isDirectiveItem, patchDirectiveOf, patchError } from "./strategic-merge-directives.js";

/** A list that strategic merge patch merges instead of replacing. */
export type MergingList = Exclude<ListSemantics, { type: "atomic" }>;

/** Merges one patch item into the matching live item (or into nothing); undefined deletes it. */
export type ItemMerger = (original: JsonObject | undefined, patchItem: JsonObject) => JsonObject | undefined;

/**
 * How items of one list are told apart: the merge key's value for lists of maps, the value itself
 * for sets. Identities are JSON texts so that they can key a Map; undefined means "no identity"
 * (a live item lacking its merge key), which never matches anything.
 */
type Identity = (item: JsonValue) => string | undefined;

export function identityOf(list: MergingList, path: readonly string[]): Identity {
  if (list.type === "set") return (item) => JSON.stringify(item);
  const mergeKey = list.keys[0];
  if (mergeKey === undefined) throw patchError(path, "the list is declared a map list without key fields");
  return (item) =>
    isJsonObject(item) && Object.hasOwn(item, mergeKey) ? JSON.stringify(item[mergeKey]) : undefined;
}

/** Merges a patch list into a live list of a `map` or `set` list field. */
export function mergeList(
  original: readonly JsonValue[],
  patch: readonly JsonValue[],
  list: MergingList,
  path: readonly string[],
  mergeItem: ItemMerger,
): JsonValue[] {
  if (list.type === "set") return mergeSet(original, patch, path);
  return mergeMapList(original, patch, list.keys[0] ?? "", path, mergeItem);
}

function mergeSet(
  original: readonly JsonValue[],
  patch: readonly JsonValue[],
  path: readonly string[],
): JsonValue[] {
  for (const item of patch) {
    if (item !== null && typeof item === "object") {
      throw patchError(
        path,
        `cannot merge lists without merge key: item ${JSON.stringify(item)} is not a primitive`,
      );
    }
  }
  const identity = identityOf({ type: "set" }, path);
  const seen = new Set<string | undefined>();
  const union = [...original, ...patch].filter((item) => {
    const id = identity(item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return orderMerged(union, patch, original, identity);
}

function mergeMapList(
  original: readonly JsonValue[],
  patch: readonly JsonValue[],
  mergeKey: string,
  path: readonly string[],
  mergeItem: ItemMerger,
): JsonValue[] {
  const identity = identityOf({ type: "map", keys: [mergeKey] }, path);
  const { base, dataItems } = applyListDirectives(original, patch, mergeKey, path, mergeItem);
  for (const item of dataItems) {
    const id = JSON.stringify(requireMergeKey(item, mergeKey, path));
    const index = base.findIndex((live) => identity(live) === id);
    const merged = mergeItem(index >= 0 ? (base[index] as JsonObject) : undefined, item);
    if (index < 0) {
      if (merged !== undefined) base.push(merged);
    } else if (merged === undefined) {
      base.splice(index, 1);
    } else {
      base[index] = merged;
    }
  }
  return orderMerged(base, dataItems, original, identity);
}

/**
 * Handles the items that are directives: `$patch: delete` removes every live item with that merge
 * key, `$patch: replace` makes the list exactly the patch's other items. Returns the live items
 * left to merge into and the patch items that are data.
 */
function applyListDirectives(
  original: readonly JsonValue[],
  patch: readonly JsonValue[],
  mergeKey: string,
  path: readonly string[],
  mergeItem: ItemMerger,
): { base: JsonValue[]; dataItems: JsonObject[] } {
  const identity = identityOf({ type: "map", keys: [mergeKey] }, path);
  let base = [...original];
  const dataItems: JsonObject[] = [];
  let replace = false;
  for (const item of patch) {
    if (!isJsonObject(item)) {
      throw patchError(
        path,
        `items of a list merged by ${JSON.stringify(mergeKey)} must be maps, got ${JSON.stringify(item)}`,
      );
    }
    const directive = patchDirectiveOf(item, path);
    if (directive === "delete") {
      const doomed = JSON.stringify(requireMergeKey(item, mergeKey, path));
      base = base.filter((live) => identity(live) !== doomed);
    } else if (directive === "replace") {
      replace = true;
    } else {
      dataItems.push(item);
    }
  }
  if (!replace) return { base, dataItems };
  const replacement = dataItems
    .map((item) => mergeItem(undefined, item))
    .filter((item) => item !== undefined);
  return { base: replacement, dataItems: [] };
}

function requireMergeKey(item: JsonObject, mergeKey: string, path: readonly string[]): JsonValue {
  const value = Object.hasOwn(item, mergeKey) ? item[mergeKey] : undefined;
  if (value === undefined) {
    throw patchError(path, `map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
  }
  return value;
}

/**
 * Orders a merged list as kube-apiserver does: items named by `order` (the patch list or a
 * `$setElementOrder` list) follow that order, the other (server-only) items keep their live
 * order, and the two runs are interleaved by their live positions where both have one. Items
 * new to the list therefore come before server-only items they cannot be compared with.
 */
export function orderMerged(
  merged: readonly JsonValue[],
  order: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  identity: Identity,
): JsonValue[] {
  const orderIndex = positions(order, identity);
  const serverIndex = positions(serverOrder, identity);
  const rank = (index: Map<string, number>, item: JsonValue): number => {
    const id = identity(item);
    return (id !== undefined ? index.get(id) : undefined) ?? Number.POSITIVE_INFINITY;
  };
  const inOrder = (item: JsonValue): boolean => rank(orderIndex, item) !== Number.POSITIVE_INFINITY;
  const ordered = merged.filter(inOrder).sort((a, b) => rank(orderIndex, a) - rank(orderIndex, b));
  const serverOnly = merged
    .filter((item) => !inOrder(item))
    .sort((a, b) => rank(serverIndex, a) - rank(serverIndex, b));

  const result: JsonValue[] = [];
  let left = 0;
  let right = 0;
  while (left < serverOnly.length || right < ordered.length) {
    const serverItem = serverOnly[left];
    const orderedItem = ordered[right];
    if (orderedItem === undefined || (serverItem !== undefined && liveBefore(serverItem, orderedItem))) {
      result.push(serverItem as JsonValue);
      left++;
    } else {
      result.push(orderedItem);
      right++;
    }
  }
  return result;

  function liveBefore(a: JsonValue, b: JsonValue): boolean {
    const rankA = rank(serverIndex, a);
    const rankB = rank(serverIndex, b);
    return rankA !== Number.POSITIVE_INFINITY && rankB !== Number.POSITIVE_INFINITY && rankA < rankB;
  }
}

function positions(list: readonly JsonValue[], identity: Identity): Map<string, number> {
  const index = new Map<string, number>();
  list.forEach((item, position) => {
    const id = identity(item);
    if (id !== undefined && !index.has(id)) index.set(id, position);
  });
  return index;
}

/**
 * A `$setElementOrder` list must name the patch list's data items in the same relative order
 * (it may name more); otherwise the client sent an inconsistent patch.
 */
export function validateElementOrder(
  patchList: readonly JsonValue[],
  order: readonly JsonValue[],
  list: MergingList,
  path: readonly string[],
): void {
  const identity = identityOf(list, path);
  for (const item of order) {
    const unnamed =
      list.type === "set" ? item !== null && typeof item === "object" : identity(item) === undefined;
    if (unnamed) {
      throw patchError(path, `$setElementOrder item ${JSON.stringify(item)} does not name a list element`);
    }
  }
  let position = 0;
  for (const item of patchList.filter((entry) => !isDirectiveItem(entry))) {
    const id = identity(item);
    while (position < order.length && identity(order[position] as JsonValue) !== id) position++;
    if (position >= order.length) {
      throw patchError(
        path,
        `the order in patch list ${JSON.stringify(patchList)} doesn't match $setElementOrder list ${JSON.stringify(order)}`,
      );
    }
    position++;
  }
}

/** `$deleteFromPrimitiveList/<field>`: removes every occurrence of the given values. */
export function withoutValues(current: readonly JsonValue[], values: readonly JsonValue[]): JsonValue[] {
  return current.filter((item) => !values.some((value) => jsonEqual(item, value)));
}
