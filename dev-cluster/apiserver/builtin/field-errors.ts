import type { StatusCause } from "../api-error.js";
import type { JsonValue } from "../json.js";

/**
 * StatusCauses shaped like apimachinery's field.Error: the reason is the error type
 * (`FieldValueRequired`, ...) and the message is what `ErrorBody()` prints, so kubectl shows
 * `* spec.containers[0].image: Required value` exactly as against a real cluster.
 */

/** Renders a value the way field.Error does: strings quoted, numbers and booleans bare, the rest as JSON. */
export function formatFieldValue(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function withDetail(type: string, detail: string | undefined): string {
  return detail ? `${type}: ${detail}` : type;
}

export function requiredField(field: string, detail?: string): StatusCause {
  return { reason: "FieldValueRequired", message: withDetail("Required value", detail), field };
}

export function invalidField(field: string, value: JsonValue | undefined, detail: string): StatusCause {
  return {
    reason: "FieldValueInvalid",
    message: `Invalid value: ${formatFieldValue(value)}: ${detail}`,
    field,
  };
}

export function typeInvalidField(field: string, value: JsonValue | undefined, detail: string): StatusCause {
  return {
    reason: "FieldValueTypeInvalid",
    message: `Invalid value: ${formatFieldValue(value)}: ${detail}`,
    field,
  };
}

export function forbiddenField(field: string, detail: string): StatusCause {
  return { reason: "FieldValueForbidden", message: withDetail("Forbidden", detail), field };
}

export function duplicateField(field: string, value: JsonValue | undefined): StatusCause {
  return { reason: "FieldValueDuplicate", message: `Duplicate value: ${formatFieldValue(value)}`, field };
}

export function notSupportedField(
  field: string,
  value: JsonValue | undefined,
  supported: readonly string[],
): StatusCause {
  const list = supported.map((option) => JSON.stringify(option)).join(", ");
  return {
    reason: "FieldValueNotSupported",
    message: `Unsupported value: ${formatFieldValue(value)}: supported values: ${list}`,
    field,
  };
}

/** apimachinery's ValidateImmutableField. */
export function immutableField(field: string, value: JsonValue | undefined): StatusCause {
  return invalidField(field, value, "field is immutable");
}

/** Joins field path parts the way field.Path prints: `spec.containers[0].image`, `data[key]`. */
export function childPath(base: string, name: string): string {
  return base === "" ? name : `${base}.${name}`;
}

export function indexPath(base: string, index: number | string): string {
  return `${base}[${index}]`;
}

/** Merges cause lists, dropping repeats of the same reason on the same field (schema and semantic checks overlap). */
export function mergeCauses(...lists: StatusCause[][]): StatusCause[] {
  const seen = new Set<string>();
  const merged: StatusCause[] = [];
  for (const cause of lists.flat()) {
    const key = `${cause.field ?? ""}\u0000${cause.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(cause);
  }
  return merged;
}
