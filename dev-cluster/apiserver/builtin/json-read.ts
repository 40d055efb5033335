import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/**
 * Tolerant readers for objects that have not been validated yet: a field of the wrong type reads
 * as absent, so defaulting, printing and semantic checks never throw on odd input.
 */

/** The value at `path` below `value`, or undefined when a step is missing or not an object. */
export function valueAt(value: JsonValue | undefined, ...path: string[]): JsonValue | undefined {
  let node: JsonValue | undefined = value;
  for (const key of path) {
    if (!isJsonObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

export function objectAt(value: JsonValue | undefined, ...path: string[]): JsonObject | undefined {
  const found = valueAt(value, ...path);
  return isJsonObject(found) ? found : undefined;
}

export function stringAt(value: JsonValue | undefined, ...path: string[]): string | undefined {
  const found = valueAt(value, ...path);
  return typeof found === "string" ? found : undefined;
}

export function numberAt(value: JsonValue | undefined, ...path: string[]): number | undefined {
  const found = valueAt(value, ...path);
  return typeof found === "number" ? found : undefined;
}

export function booleanAt(value: JsonValue | undefined, ...path: string[]): boolean | undefined {
  const found = valueAt(value, ...path);
  return typeof found === "boolean" ? found : undefined;
}

export function arrayAt(value: JsonValue | undefined, ...path: string[]): JsonValue[] {
  const found = valueAt(value, ...path);
  return Array.isArray(found) ? found : [];
}

/** The object items of the list at `path` (non-object items are skipped). */
export function objectsAt(value: JsonValue | undefined, ...path: string[]): JsonObject[] {
  return arrayAt(value, ...path).filter(isJsonObject);
}

/** A `map[string]string` field, keeping only string values. */
export function stringMapAt(value: JsonValue | undefined, ...path: string[]): Record<string, string> {
  const found = objectAt(value, ...path);
  if (!found) return {};
  return Object.fromEntries(
    Object.entries(found).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** The child object `key` of `parent`, created when absent (or not an object). */
export function childObject(parent: JsonObject, key: string): JsonObject {
  const existing = parent[key];
  if (isJsonObject(existing)) return existing;
  const created: JsonObject = {};
  parent[key] = created;
  return created;
}

/** Go's defaulting treats a nil pointer as unset: here that is an absent or null field. */
export function defaultValue(object: JsonObject, key: string, value: JsonValue): void {
  if (object[key] === undefined || object[key] === null) object[key] = value;
}

/** String enums default when empty too, as Go's zero value "" means "not set". */
export function defaultString(object: JsonObject, key: string, value: string): void {
  const current = object[key];
  if (current === undefined || current === null || current === "") object[key] = value;
}
