/** JSON values as they travel through the API server: parsed request bodies and stored objects. */
export type JsonPrimitive = null | boolean | number | string;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy; stored objects are never handed out for mutation. */
export function cloneJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}
