import { goNumber } from "../crd/go-format.js";
import { isJsonObject, type JsonValue } from "../json.js";

/** fmt.Fprint of a scalar, as client-go's jsonpath prints one: text as is, numbers like Go. */
export function goPrintText(value: string | number | boolean): string {
  return typeof value === "number" ? goNumber(value) : String(value);
}

/** encoding/json.Marshal: object keys sorted, and <, >, & and line separators escaped. */
export function goJsonText(value: JsonValue): string {
  return JSON.stringify(sortedKeys(value)).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function sortedKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isJsonObject(value)) return value;
  const sorted: Record<string, JsonValue> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortedKeys(value[key] ?? null);
  return sorted;
}
