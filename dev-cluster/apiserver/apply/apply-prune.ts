import { cloneJson, type JsonObject } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import type { FieldSet } from "./field-set.js";
import { removeAtPath } from "./object-paths.js";
import { type FieldPath, parseElement } from "./path-element.js";

/** A key field of a map-list item (`[name="c"].name`): it goes with its item, never alone. */
function isItemKeyField(path: FieldPath): boolean {
  const last = path.at(-1);
  const parent = path.at(-2);
  if (last === undefined || parent === undefined || !parent.startsWith("k:")) return false;
  const field = parseElement(last);
  const item = parseElement(parent);
  return field.kind === "field" && item.kind === "key" && Object.hasOwn(item.fields, field.name);
}

/**
 * Removes what the applier set last time, no longer applies, and nobody else owns: a field, or
 * a list item when no field inside it is still owned. Shallow paths go first so an item's
 * fields vanish with it.
 */
export function pruneUnapplied(
  merged: JsonObject,
  previouslyApplied: FieldSet,
  owned: FieldSet,
  semantics: FieldSemanticsLookup,
): JsonObject {
  const orphaned = previouslyApplied
    .filter((path) => !owned.has(path) && !owned.hasDescendants(path) && !isItemKeyField(path))
    .paths()
    .sort((a, b) => a.length - b.length);
  if (orphaned.length === 0) return merged;
  const pruned = cloneJson(merged);
  for (const path of orphaned) removeAtPath(pruned, path, semantics);
  return pruned;
}
