import type { StatusCause } from "../api-error.js";
import type { JsonValue } from "../json.js";
import { goBadValue } from "./go-format.js";

/**
 * StatusCauses shaped like apimachinery's field.Error: `reason` is the error type and `message`
 * is ErrorBody(), e.g. `Invalid value: "x": must be ...`. An empty field is left out, as
 * kube-apiserver omits it from `details.causes`.
 */

function cause(reason: string, field: string, message: string): StatusCause {
  return field === "" ? { reason, message } : { reason, message, field };
}

function withDetail(text: string, detail: string): string {
  return detail === "" ? text : `${text}: ${detail}`;
}

export function required(field: string, detail = ""): StatusCause {
  return cause("FieldValueRequired", field, withDetail("Required value", detail));
}

export function forbidden(field: string, detail: string): StatusCause {
  return cause("FieldValueForbidden", field, withDetail("Forbidden", detail));
}

/** Text that stands in for a bad value Go would print as a struct (`%#v` of an API type). */
export class RawValue {
  constructor(readonly text: string) {}
}

/** `value` is printed the way Go prints it; a RawValue is printed as is. */
export function invalid(field: string, value: JsonValue | undefined | RawValue, detail: string): StatusCause {
  return cause("FieldValueInvalid", field, withDetail(`Invalid value: ${printed(value)}`, detail));
}

export function typeInvalid(field: string, value: JsonValue | undefined, detail: string): StatusCause {
  return cause("FieldValueTypeInvalid", field, withDetail(`Invalid value: ${goBadValue(value)}`, detail));
}

export function notSupported(
  field: string,
  value: JsonValue | undefined,
  supported: readonly string[],
): StatusCause {
  const detail =
    supported.length === 0 ? "" : `supported values: ${supported.map((v) => JSON.stringify(v)).join(", ")}`;
  return cause(
    "FieldValueNotSupported",
    field,
    withDetail(`Unsupported value: ${goBadValue(value)}`, detail),
  );
}

export function duplicate(field: string, value: JsonValue | undefined): StatusCause {
  return cause("FieldValueDuplicate", field, `Duplicate value: ${goBadValue(value)}`);
}

/** field.TooLong: the value itself is never printed. */
export function tooLong(field: string, maxLength: number): StatusCause {
  const detail =
    maxLength >= 0
      ? `may not be more than ${maxLength} ${maxLength === 1 ? "byte" : "bytes"}`
      : "value is too long";
  return cause("FieldValueTooLong", field, `Too long: ${detail}`);
}

export function tooMany(field: string, actual: number, max: number): StatusCause {
  const detail = max >= 0 ? `must have at most ${max} items` : "has too many items";
  const shown = actual >= 0 ? `: ${actual}` : "";
  return cause("FieldValueTooMany", field, `Too many${shown}: ${detail}`);
}

function printed(value: JsonValue | undefined | RawValue): string {
  return value instanceof RawValue ? value.text : goBadValue(value);
}

/** field.Path.Child: `spec.versions`. */
export function child(base: string, ...names: string[]): string {
  return names.reduce((path, name) => (path === "" ? name : `${path}.${name}`), base);
}

/** field.Path.Index: `versions[0]`. */
export function index(base: string, position: number): string {
  return `${base}[${position}]`;
}

/** field.Path.Key: `properties[spec]` (keys are not quoted). */
export function key(base: string, name: string): string {
  return `${base}[${name}]`;
}
