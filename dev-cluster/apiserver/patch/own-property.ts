import type { JsonObject, JsonValue } from "../json.js";

/**
 * Reads a property only when the object itself holds it: patch documents come from clients, and
 * a key like `toString` or `__proto__` must never resolve to something inherited.
 */
export function ownValue(target: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/**
 * Writes a property as an own data property. Plain assignment of `__proto__` would replace the
 * object's prototype instead of storing a field, so client-chosen keys go through here.
 */
export function setOwnValue(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
