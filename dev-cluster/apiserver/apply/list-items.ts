import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { FieldSemantics, ListSemantics } from "../resource-type.js";
import { keyElement, type PathElement, valueElement } from "./path-element.js";

const ATOMIC: ListSemantics = { type: "atomic" };

function isScalar(value: JsonValue): boolean {
  return value === null || typeof value !== "object";
}

type MapListSemantics = Extract<ListSemantics, { type: "map" }>;

/**
 * Values a key field takes when an item omits it. Upstream reads them from the schema's
 * `default`; in the built-in API the only defaulted key is a port's `protocol` (TCP), and
 * without it an applied `{containerPort: 80}` would not match the stored, defaulted port.
 * `keyDefaults` on the list semantics, if the resource type provides it, takes precedence.
 */
function keyDefault(list: MapListSemantics, key: string): JsonValue | undefined {
  const declared = (list as MapListSemantics & { keyDefaults?: Record<string, JsonValue> }).keyDefaults;
  if (declared && Object.hasOwn(declared, key)) return declared[key];
  return key === "protocol" ? "TCP" : undefined;
}

/** The key fields that identify an item; undefined when it carries none of them. */
function keyFieldsOf(item: JsonObject, list: MapListSemantics): JsonObject | undefined {
  const fields: JsonObject = {};
  let present = false;
  for (const key of list.keys) {
    const value = item[key] ?? keyDefault(list, key);
    if (item[key] !== undefined) present = true;
    if (value !== undefined) fields[key] = value;
  }
  return present ? fields : undefined;
}

/** The path element of one item of a `set` or `map` list; undefined when the item cannot have one. */
export function listItemElement(item: JsonValue, list: ListSemantics): PathElement | undefined {
  if (list.type === "set") return isScalar(item) ? valueElement(item) : undefined;
  if (list.type !== "map" || !isJsonObject(item)) return undefined;
  const fields = keyFieldsOf(item, list);
  return fields ? keyElement(fields) : undefined;
}

/**
 * How this particular list value merges: its declared semantics, or atomic when the value
 * cannot be treated item by item (an item without key fields, non-scalar set items, or
 * duplicates). Upstream rejects such lists; a dev cluster degrading to "replace whole" keeps
 * writes of stored objects working instead of failing on data it accepted earlier.
 */
export function listSemanticsOf(
  list: readonly JsonValue[],
  declared: FieldSemantics | undefined,
): ListSemantics {
  const semantics = declared?.list ?? ATOMIC;
  if (semantics.type === "atomic") return ATOMIC;
  const seen = new Set<PathElement>();
  for (const item of list) {
    const element = listItemElement(item, semantics);
    if (element === undefined || seen.has(element)) return ATOMIC;
    seen.add(element);
  }
  return semantics;
}
