/**
 * Protobuf message schemas, written as compact tables of `fieldNumber: "jsonName type [keepZero]"`:
 *
 * - type `string | int32 | int64 | bool | bytes`: a scalar (int64 becomes a JS number; bytes become base64,
 *   as encoding/json writes a []byte).
 * - type `Time | MicroTime | IntOrString | Quantity | FieldsV1`: an apimachinery type with its own JSON form.
 * - any other type names a message of the tables.
 * - `*T`: a Go pointer. On the wire it is present only when set, so a zero value is kept (`replicas: 0`).
 * - `[]T`: repeated; `map[T]`: a `map<string, T>` (upstream writes maps as repeated key/value entries).
 * - jsonName `...`: the message is embedded with Go's `json:",inline"`; its fields land in the parent object.
 * - `keepZero`: the Go field has no omitempty, so encoding/json writes its zero value (`value: 0`).
 *
 * Fields of the other kinds follow omitempty: upstream's marshaller writes every non-pointer field, zero or
 * not, and a zero scalar found on the wire is left out of the JSON unless `*` or `keepZero` says otherwise.
 */

export type MessageTable = Readonly<Record<number, string>>;
export type MessageTables = Readonly<Record<string, MessageTable>>;

const SCALAR_TYPES = ["string", "int32", "int64", "bool", "bytes"] as const;
const SPECIAL_TYPES = ["Time", "MicroTime", "IntOrString", "Quantity", "FieldsV1"] as const;

export type ScalarType = (typeof SCALAR_TYPES)[number];
export type SpecialType = (typeof SPECIAL_TYPES)[number];

export type ValueType =
  | { kind: "scalar"; scalar: ScalarType }
  | { kind: "special"; special: SpecialType }
  | { kind: "message"; message: string };

export interface FieldSchema {
  number: number;
  /** Undefined for an inlined message. */
  jsonName: string | undefined;
  cardinality: "single" | "repeated" | "map";
  value: ValueType;
  /** Whether a zero scalar is written to the JSON (a pointer, or a field without omitempty). */
  keepZero: boolean;
}

export interface MessageSchema {
  name: string;
  fields: ReadonlyMap<number, FieldSchema>;
}

function isOneOf<T extends string>(values: readonly T[], candidate: string): candidate is T {
  return (values as readonly string[]).includes(candidate);
}

function parseValueType(name: string): ValueType {
  if (isOneOf(SCALAR_TYPES, name)) return { kind: "scalar", scalar: name };
  if (isOneOf(SPECIAL_TYPES, name)) return { kind: "special", special: name };
  return { kind: "message", message: name };
}

const FIELD_PATTERN =
  /^(\.\.\.|[A-Za-z][A-Za-z0-9]*) (\*|\[\]|map\[)?([A-Za-z][A-Za-z0-9]*)(\])?( keepZero)?$/;

function parseField(messageName: string, number: number, spec: string): FieldSchema {
  const match = FIELD_PATTERN.exec(spec);
  const [, jsonName, modifier, typeName, mapClose, keepZero] = match ?? [];
  if (!jsonName || !typeName || (modifier === "map[") !== (mapClose === "]")) {
    throw new Error(`protobuf schema ${messageName}.${number}: cannot parse "${spec}"`);
  }
  const value = parseValueType(typeName);
  const inline = jsonName === "...";
  if (inline && (modifier !== undefined || value.kind !== "message")) {
    throw new Error(`protobuf schema ${messageName}.${number}: only a single message can be inlined`);
  }
  return {
    number,
    jsonName: inline ? undefined : jsonName,
    cardinality: modifier === "[]" ? "repeated" : modifier === "map[" ? "map" : "single",
    value,
    keepZero: modifier === "*" || keepZero !== undefined,
  };
}

/**
 * Parses the tables into schemas and checks that every referenced message exists. A mistake in a table is
 * a programming error, so it throws a plain Error when the module loads.
 */
export function compileMessageSchemas(tables: readonly MessageTables[]): ReadonlyMap<string, MessageSchema> {
  const schemas = new Map<string, MessageSchema>();
  for (const table of tables) {
    for (const [name, fields] of Object.entries(table)) {
      if (schemas.has(name)) throw new Error(`protobuf schema ${name} is defined twice`);
      const parsed = Object.entries(fields).map(([number, spec]) => parseField(name, Number(number), spec));
      schemas.set(name, { name, fields: new Map(parsed.map((field) => [field.number, field])) });
    }
  }
  for (const schema of schemas.values()) {
    for (const field of schema.fields.values()) {
      if (field.value.kind === "message" && !schemas.has(field.value.message)) {
        throw new Error(
          `protobuf schema ${schema.name}.${field.number} names unknown message ${field.value.message}`,
        );
      }
    }
  }
  return schemas;
}
