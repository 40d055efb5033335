import { isQuantity } from "../../../runtime/quantity/quantity.js";
import type { JsonValue } from "../json.js";
import type { SpecialType } from "./message-schema.js";
import { ProtobufDecodeError, readWireFields, type WireField } from "./wire-reader.js";

/**
 * The apimachinery types whose JSON form is not their protobuf message's: timestamps become RFC 3339
 * strings, IntOrString a number or a string, Quantity its string, FieldsV1 the JSON document it carries.
 */

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): string {
  // Go keeps invalid UTF-8 in the string and encoding/json writes U+FFFD for it: the non-fatal decoder agrees.
  return utf8.decode(bytes);
}

function expectVarint(field: WireField, what: string): bigint {
  if (field.wireType !== 0)
    throw new ProtobufDecodeError(`${what}: wire type ${field.wireType}, want varint`);
  return field.varint;
}

function expectBytes(field: WireField, what: string): Uint8Array {
  if (field.wireType !== 2) {
    throw new ProtobufDecodeError(`${what}: wire type ${field.wireType}, want length-delimited`);
  }
  return field.bytes;
}

const NANOS_PER_SECOND = 1_000_000_000n;
/** encoding/json refuses years outside [0, 9999] (Time.MarshalJSON), so these are as far as a time goes. */
const MIN_SECONDS = -62_167_219_200n; // 0000-01-01T00:00:00Z
const MAX_SECONDS = 253_402_300_799n; // 9999-12-31T23:59:59Z

/**
 * meta/v1 Time and MicroTime: {seconds int64 = 1, nanos int32 = 2}. Upstream writes the zero time as an
 * empty message, which decodes to Go's zero time, which encoding/json writes as null.
 */
function decodeTimestamp(bytes: Uint8Array, precision: "second" | "microsecond"): string | null {
  if (bytes.length === 0) return null;
  let seconds = 0n;
  let nanos = 0n;
  for (const field of readWireFields(bytes)) {
    if (field.number === 1) seconds = BigInt.asIntN(64, expectVarint(field, "Time.seconds"));
    if (field.number === 2) nanos = BigInt.asIntN(32, expectVarint(field, "Time.nanos"));
  }
  // time.Unix normalizes nanoseconds outside [0, 1e9) into the seconds.
  const total = seconds * NANOS_PER_SECOND + nanos;
  let whole = total / NANOS_PER_SECOND;
  let fraction = total % NANOS_PER_SECOND;
  if (fraction < 0n) {
    whole -= 1n;
    fraction += NANOS_PER_SECOND;
  }
  if (whole < MIN_SECONDS || whole > MAX_SECONDS) {
    throw new ProtobufDecodeError(`timestamp ${seconds}s is outside the years 0 to 9999`);
  }
  const iso = new Date(Number(whole) * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  const base = iso.slice(0, 19);
  if (precision === "second") return `${base}Z`;
  return `${base}.${String(fraction / 1000n).padStart(6, "0")}Z`;
}

/** intstr.IntOrString: {type int64 = 1 (0 int, 1 string), intVal int32 = 2, strVal string = 3}. */
function decodeIntOrString(bytes: Uint8Array): number | string {
  let type = 0n;
  let intVal = 0;
  let strVal = "";
  for (const field of readWireFields(bytes)) {
    if (field.number === 1) type = BigInt.asIntN(64, expectVarint(field, "IntOrString.type"));
    if (field.number === 2) intVal = Number(BigInt.asIntN(32, expectVarint(field, "IntOrString.intVal")));
    if (field.number === 3) strVal = decodeUtf8(expectBytes(field, "IntOrString.strVal"));
  }
  if (type === 0n) return intVal;
  if (type === 1n) return strVal;
  throw new ProtobufDecodeError(`IntOrString has type ${type}, want 0 (int) or 1 (string)`);
}

/**
 * resource.Quantity: {string string = 1}. Upstream parses the string and fails the decode when it is not
 * a quantity; a message without the field is the zero quantity, "0". The string is kept as sent (kubectl
 * sends the canonical form already).
 */
function decodeQuantity(bytes: Uint8Array): string {
  let value: string | undefined;
  for (const field of readWireFields(bytes)) {
    if (field.number === 1) value = decodeUtf8(expectBytes(field, "Quantity.string"));
  }
  if (value === undefined) return "0";
  if (!isQuantity(value)) throw new ProtobufDecodeError(`quantity "${value}" is not a valid quantity`);
  return value;
}

/** meta/v1 FieldsV1: {Raw bytes = 1}, the JSON of a managed-fields set. */
function decodeFieldsV1(bytes: Uint8Array): JsonValue {
  let raw: Uint8Array | undefined;
  for (const field of readWireFields(bytes)) {
    if (field.number === 1) raw = expectBytes(field, "FieldsV1.Raw");
  }
  if (raw === undefined) return null;
  try {
    return JSON.parse(decodeUtf8(raw)) as JsonValue;
  } catch (error) {
    throw new ProtobufDecodeError("FieldsV1 does not hold JSON", { cause: error });
  }
}

export function decodeSpecialType(type: SpecialType, bytes: Uint8Array): JsonValue {
  switch (type) {
    case "Time":
      return decodeTimestamp(bytes, "second");
    case "MicroTime":
      return decodeTimestamp(bytes, "microsecond");
    case "IntOrString":
      return decodeIntOrString(bytes);
    case "Quantity":
      return decodeQuantity(bytes);
    case "FieldsV1":
      return decodeFieldsV1(bytes);
  }
}
