import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSchema, MessageSchema, ScalarType, ValueType } from "./message-schema.js";
import { decodeSpecialType, decodeUtf8 } from "./special-types.js";
import { ProtobufDecodeError, readPackedVarints, readWireFields, type WireField } from "./wire-reader.js";

/**
 * Turns the bytes of a message into the JSON object encoding/json would write for the Go struct that
 * upstream's generated Unmarshal fills from the same bytes: unknown fields are skipped, a repeated
 * occurrence of a singular message merges into the first, map entries and list items accumulate.
 */

export type SchemaLookup = (name: string) => MessageSchema;

/** Deeper than any Kubernetes kind nests; a guard against a schema cycle rather than against the input. */
const MAX_DEPTH = 64;

interface DecodeContext {
  lookup: SchemaLookup;
  depth: number;
}

function fail(path: string, problem: string, cause?: unknown): never {
  throw new ProtobufDecodeError(
    `${path || "object"}: ${problem}`,
    cause === undefined ? undefined : { cause },
  );
}

/** readWireFields, with the JSON path in front of the reader's complaints. */
function* wireFieldsAt(bytes: Uint8Array, path: string): Generator<WireField> {
  const fields = readWireFields(bytes);
  for (;;) {
    let step: IteratorResult<WireField>;
    try {
      step = fields.next();
    } catch (error) {
      if (error instanceof ProtobufDecodeError) fail(path, error.message, error);
      throw error;
    }
    if (step.done) return;
    yield step.value;
  }
}

function packedVarintsAt(bytes: Uint8Array, path: string): bigint[] {
  try {
    return readPackedVarints(bytes);
  } catch (error) {
    if (error instanceof ProtobufDecodeError) fail(path, error.message, error);
    throw error;
  }
}

function childPath(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

function wireTypeName(wire: WireField): string {
  return ["varint", "fixed64", "length-delimited", "", "", "fixed32"][wire.wireType] ?? String(wire.wireType);
}

function scalarFromVarint(type: "int32" | "int64" | "bool", varint: bigint): JsonValue {
  if (type === "int32") return Number(BigInt.asIntN(32, varint));
  // int64 past 2^53 loses precision as a JS number; no field of these kinds gets that large.
  if (type === "int64") return Number(BigInt.asIntN(64, varint));
  return varint !== 0n;
}

function decodeScalar(type: ScalarType, wire: WireField, path: string): JsonValue {
  if (type === "string" || type === "bytes") {
    if (wire.wireType !== 2) fail(path, `wire type ${wireTypeName(wire)} for a ${type}`);
    // encoding/json writes a []byte as base64.
    return type === "string" ? decodeUtf8(wire.bytes) : Buffer.from(wire.bytes).toString("base64");
  }
  if (wire.wireType !== 0) fail(path, `wire type ${wireTypeName(wire)} for an ${type}`);
  return scalarFromVarint(type, wire.varint);
}

/** Decodes one value of the field's type: the single value, a list item or a map value. */
function decodeValue(
  value: ValueType,
  wire: WireField,
  existing: JsonValue | undefined,
  path: string,
  context: DecodeContext,
): JsonValue {
  if (value.kind === "scalar") return decodeScalar(value.scalar, wire, path);
  if (wire.wireType !== 2) fail(path, `wire type ${wireTypeName(wire)} for a message`);
  if (value.kind === "special") {
    try {
      return decodeSpecialType(value.special, wire.bytes);
    } catch (error) {
      if (error instanceof ProtobufDecodeError) fail(path, error.message, error);
      throw error;
    }
  }
  const target = isJsonObject(existing) ? existing : {};
  decodeMessageInto(target, wire.bytes, context.lookup(value.message), path, context);
  return target;
}

function appendRepeated(
  target: JsonObject,
  field: FieldSchema,
  key: string,
  wire: WireField,
  path: string,
  context: DecodeContext,
) {
  const existing = target[key];
  const list = Array.isArray(existing) ? existing : [];
  target[key] = list;
  const { value } = field;
  // A length-delimited run of varints is a packed list (Go's proto2 decoders accept that too).
  const packed = value.kind === "scalar" ? value.scalar : undefined;
  if (wire.wireType === 2 && (packed === "int32" || packed === "int64" || packed === "bool")) {
    for (const varint of packedVarintsAt(wire.bytes, childPath(path, key))) {
      list.push(scalarFromVarint(packed, varint));
    }
    return;
  }
  list.push(decodeValue(value, wire, undefined, `${childPath(path, key)}[${list.length}]`, context));
}

const SCALAR_ZEROS: Record<ScalarType, JsonValue> = {
  string: "",
  bytes: "",
  int32: 0,
  int64: 0,
  bool: false,
};

function zeroValue(value: ValueType): JsonValue {
  if (value.kind === "special") return decodeSpecialType(value.special, new Uint8Array());
  if (value.kind === "message") return {};
  return SCALAR_ZEROS[value.scalar];
}

/** A map entry is a message {key = 1, value = 2}; a missing key or value is its type's zero value. */
function putMapEntry(
  target: JsonObject,
  field: FieldSchema,
  key: string,
  wire: WireField,
  path: string,
  context: DecodeContext,
) {
  const mapPath = childPath(path, key);
  if (wire.wireType !== 2) fail(mapPath, `wire type ${wireTypeName(wire)} for a map entry`);
  const existing = target[key];
  const map = isJsonObject(existing) ? existing : {};
  target[key] = map;
  let entryKey = "";
  let entryValue: JsonValue | undefined;
  for (const part of wireFieldsAt(wire.bytes, mapPath)) {
    if (part.number === 1) entryKey = String(decodeScalar("string", part, `${mapPath} key`));
    if (part.number === 2) {
      entryValue = decodeValue(field.value, part, undefined, `${mapPath}[${entryKey}]`, context);
    }
  }
  // Defined rather than assigned: a key such as "__proto__" must become an own property, as JSON.parse makes it.
  Object.defineProperty(map, entryKey, {
    value: entryValue ?? zeroValue(field.value),
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function setSingle(
  target: JsonObject,
  field: FieldSchema,
  key: string,
  wire: WireField,
  path: string,
  context: DecodeContext,
) {
  const decoded = decodeValue(field.value, wire, target[key], childPath(path, key), context);
  const zero = decoded === "" || decoded === 0 || decoded === false;
  if (field.value.kind === "scalar" && zero && !field.keepZero) {
    delete target[key]; // omitempty; a later zero overrides an earlier value, as in the Go struct
  } else {
    target[key] = decoded;
  }
}

/** Decodes the message's fields into `target`, which may hold the fields of an earlier occurrence already. */
function decodeMessageInto(
  target: JsonObject,
  bytes: Uint8Array,
  schema: MessageSchema,
  path: string,
  context: DecodeContext,
) {
  if (context.depth >= MAX_DEPTH) fail(path, `nested deeper than ${MAX_DEPTH} messages`);
  const inner = { ...context, depth: context.depth + 1 };
  for (const wire of wireFieldsAt(bytes, path)) {
    const field = schema.fields.get(wire.number);
    if (!field) continue; // a field this schema does not know: upstream's Unmarshal skips it too
    if (field.jsonName === undefined) {
      if (wire.wireType !== 2 || field.value.kind !== "message") {
        fail(path, `field ${wire.number} cannot be inlined`);
      }
      decodeMessageInto(target, wire.bytes, context.lookup(field.value.message), path, inner);
    } else if (field.cardinality === "repeated") {
      appendRepeated(target, field, field.jsonName, wire, path, inner);
    } else if (field.cardinality === "map") {
      putMapEntry(target, field, field.jsonName, wire, path, inner);
    } else {
      setSingle(target, field, field.jsonName, wire, path, inner);
    }
  }
}

/** The JSON object of one message; throws ProtobufDecodeError (with the JSON path) on malformed bytes. */
export function decodeMessage(bytes: Uint8Array, schema: MessageSchema, lookup: SchemaLookup): JsonObject {
  const target: JsonObject = {};
  decodeMessageInto(target, bytes, schema, "", { lookup, depth: 0 });
  return target;
}
