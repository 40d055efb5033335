import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { ownValue, setOwnValue } from "./own-property.js";

/**
 * Applies a JSON merge patch (RFC 7386): objects merge key by key, `null` deletes a key, and any
 * other patch value (arrays included) replaces the target. Returns a new value; neither input is
 * modified and the result shares no objects with them.
 */
export function applyMergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  return mergeOwned(structuredClone(target), patch);
}

/** `owned` is already a private copy, so it may be changed in place. */
function mergeOwned(owned: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return structuredClone(patch);
  const result: JsonObject = isJsonObject(owned) ? owned : {};
  for (const [key, patchValue] of Object.entries(patch)) {
    if (patchValue === null) {
      delete result[key];
      continue;
    }
    setOwnValue(result, key, mergeOwned(ownValue(result, key), patchValue));
  }
  return result;
}
