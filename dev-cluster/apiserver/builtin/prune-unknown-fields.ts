import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { childPath, indexPath } from "./field-errors.js";
import { type ModelType, structFields } from "./model-types.js";

/**
 * Drops the fields a built-in kind does not have, as kube-apiserver's decoder does, and returns
 * their paths in the form its strict-decoding errors use (`spec.containers[0].foo`), so the caller
 * can warn (fieldValidation=Warn), fail (Strict) or stay silent (Ignore). Values of the wrong type
 * are left to validation.
 */
export function pruneUnknownFields(object: JsonObject, rootModel: string): string[] {
  const removed: string[] = [];
  pruneValue(object, { shape: "struct", name: rootModel }, "", removed);
  return removed;
}

function pruneValue(value: JsonValue, type: ModelType, path: string, removed: string[]): void {
  if (type.shape === "array" && Array.isArray(value)) {
    value.forEach((item, index) => {
      pruneValue(item, type.items, indexPath(path, index), removed);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  if (type.shape === "map") {
    for (const [key, item] of Object.entries(value))
      pruneValue(item, type.values, indexPath(path, key), removed);
    return;
  }
  if (type.shape !== "struct") return;
  const fields = structFields(type.name);
  for (const [key, item] of Object.entries(value)) {
    const fieldType = fields.get(key);
    const fieldPath = childPath(path, key);
    if (fieldType === undefined) {
      delete value[key];
      removed.push(fieldPath);
    } else {
      pruneValue(item, fieldType, fieldPath, removed);
    }
  }
}
