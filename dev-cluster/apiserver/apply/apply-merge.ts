import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { listItemElement, listSemanticsOf } from "./list-items.js";
import type { PathElement } from "./path-element.js";

/**
 * Merges an applied configuration into the live object: applied values win; granular maps merge
 * key by key; map-lists merge items with equal keys; set-lists take the union; atomic lists and
 * maps, and values whose type changed, are replaced. Neither input is modified.
 */
export function mergeApplied(
  live: JsonObject,
  applied: JsonObject,
  semantics: FieldSemanticsLookup,
): JsonObject {
  return mergeMaps(live, applied, [], semantics);
}

function mergeMaps(
  live: JsonObject,
  applied: JsonObject,
  propertyPath: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonObject {
  const merged = cloneJson(live);
  for (const [name, value] of Object.entries(applied)) {
    merged[name] = mergeValues(live[name], value, [...propertyPath, name], semantics);
  }
  return merged;
}

function mergeValues(
  live: JsonValue | undefined,
  applied: JsonValue,
  propertyPath: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonValue {
  if (live === undefined) return cloneJson(applied);
  if (isJsonObject(live) && isJsonObject(applied) && semantics(propertyPath)?.map !== "atomic") {
    return mergeMaps(live, applied, propertyPath, semantics);
  }
  if (Array.isArray(live) && Array.isArray(applied))
    return mergeLists(live, applied, propertyPath, semantics);
  return cloneJson(applied);
}

/**
 * Items keep the live order, new items go last. Upstream additionally reorders shared items to
 * the applied order; nothing in a dev cluster depends on that.
 */
function mergeLists(
  live: readonly JsonValue[],
  applied: readonly JsonValue[],
  propertyPath: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonValue[] {
  const declared = semantics(propertyPath);
  const liveSemantics = listSemanticsOf(live, declared);
  const appliedSemantics = listSemanticsOf(applied, declared);
  if (liveSemantics.type === "atomic" || appliedSemantics.type === "atomic") return cloneJson([...applied]);
  const liveIndex = new Map<PathElement, number>();
  live.forEach((item, i) => {
    const element = listItemElement(item, liveSemantics);
    if (element !== undefined) liveIndex.set(element, i);
  });
  const merged = live.map((item) => cloneJson(item));
  const added: JsonValue[] = [];
  for (const item of applied) {
    const element = listItemElement(item, appliedSemantics);
    const at = element === undefined ? undefined : liveIndex.get(element);
    const liveItem = at === undefined ? undefined : live[at];
    if (at === undefined || liveItem === undefined) added.push(cloneJson(item));
    else if (isJsonObject(liveItem) && isJsonObject(item))
      merged[at] = mergeMaps(liveItem, item, propertyPath, semantics);
    else merged[at] = cloneJson(item);
  }
  return [...merged, ...added];
}
