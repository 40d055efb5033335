import { Kind, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { type Cause, notSupported, required } from "../validation/cause.js";
import { child, index } from "../validation/field-path.js";

/**
 * The shape check of one schema: a type guard plus causes with Kubernetes field paths, the
 * checks the API server makes against the CRD schema. Semantic rules (names that must match,
 * run strategies, ...) live in api/validation/.
 */
export interface SchemaValidator<T> {
  /** True when `value` has the schema's shape (unknown fields are allowed, as the API server prunes them). */
  check(value: unknown): value is T;
  /** Every shape error, deduplicated, each with its field path. */
  validate(value: unknown): Cause[];
}

export function compileValidator<S extends TSchema>(schema: S): SchemaValidator<Static<S>> {
  const compiled = TypeCompiler.Compile(schema);
  return {
    check: (value: unknown): value is Static<S> => compiled.Check(value),
    validate(value: unknown): Cause[] {
      const causes = new Map<string, Cause>();
      for (const error of compiled.Errors(value)) {
        // A missing property is reported twice (required, then "expected object"): keep the first.
        if (error.value === undefined && error.type !== ValueErrorType.ObjectRequiredProperty) continue;
        const cause = causeOf(schema, error);
        const id = `${cause.field}\u0000${cause.reason}`;
        if (!causes.has(id)) causes.set(id, cause);
      }
      return [...causes.values()];
    },
  };
}

function causeOf(root: TSchema, error: ValueError): Cause {
  const field = fieldPathOf(root, error.path);
  const shown = JSON.stringify(error.value) ?? "undefined";
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return required(field, "Required value");
    case ValueErrorType.Union:
      return unionCause(error, field);
    case ValueErrorType.StringPattern:
      return invalidValue(field, shown, `should match '${String(error.schema.pattern)}'`);
    case ValueErrorType.Literal:
      return notSupported(field, error.value, [String(error.schema.const)]);
    case ValueErrorType.ArrayMaxItems:
      return {
        reason: "FieldValueTooMany",
        message: `Too many: ${countOf(error.value)}: must have at most ${String(error.schema.maxItems)} items`,
        field,
      };
    case ValueErrorType.String:
    case ValueErrorType.Integer:
    case ValueErrorType.Number:
    case ValueErrorType.Boolean:
    case ValueErrorType.Object:
    case ValueErrorType.Array:
      return typeInvalid(field, error.value, typeName(error.schema));
    default:
      return invalidValue(field, shown, error.message.toLowerCase());
  }
}

function unionCause(error: ValueError, field: string): Cause {
  const members = (error.schema.anyOf ?? []) as TSchema[];
  if (members.length > 0 && members.every((member) => member[Kind] === "Literal")) {
    return notSupported(
      field,
      error.value,
      members.map((member) => String(member.const)),
    );
  }
  const stringMember = members.find((member) => member[Kind] === "String");
  if (typeof error.value === "string" && typeof stringMember?.pattern === "string") {
    return invalidValue(field, JSON.stringify(error.value), `should match '${stringMember.pattern}'`);
  }
  const expected = members
    .filter((member) => member[Kind] !== "Null")
    .map(typeName)
    .join(" or ");
  return typeInvalid(field, error.value, expected);
}

function typeInvalid(field: string, value: unknown, expected: string): Cause {
  return {
    reason: "FieldValueTypeInvalid",
    message: `Invalid value: "${jsonType(value)}": must be of type ${expected}`,
    field,
  };
}

function invalidValue(field: string, shown: string, detail: string): Cause {
  return { reason: "FieldValueInvalid", message: `Invalid value: ${shown}: ${detail}`, field };
}

function typeName(schema: TSchema): string {
  if (schema["x-kubernetes-int-or-string"] === true) return "integer or string";
  const kind = String(schema[Kind]);
  return kind === "Record" ? "object" : kind === "Literal" ? "string" : kind.toLowerCase();
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function countOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/**
 * Turns TypeBox's JSON pointer (`/spec/volumes/0/name`) into a Kubernetes field path by walking
 * the schema alongside: array positions become `[0]`, properties and map keys `.name` (as
 * kube-apiserver's OpenAPI validation prints them: `spec.domain.resources.requests.memory`).
 */
export function fieldPathOf(root: TSchema, pointer: string): string {
  const segments = pointer === "" ? [] : pointer.slice(1).split("/").map(unescapePointer);
  let schema: TSchema | undefined = root;
  let path = "";
  for (const segment of segments) {
    const node: TSchema | undefined = schema === undefined ? undefined : unwrapNullable(schema);
    const kind = node?.[Kind];
    if (kind === "Array") {
      path = index(path, Number(segment));
      schema = node?.items as TSchema | undefined;
    } else if (kind === "Record") {
      path = child(path, segment);
      schema = Object.values((node?.patternProperties ?? {}) as Record<string, TSchema>)[0];
    } else {
      path = child(path, segment);
      schema = (node?.properties as Record<string, TSchema> | undefined)?.[segment];
    }
  }
  return path;
}

function unwrapNullable(schema: TSchema): TSchema {
  if (schema[Kind] !== "Union") return schema;
  const members = ((schema.anyOf ?? []) as TSchema[]).filter((member) => member[Kind] !== "Null");
  return members.length === 1 && members[0] !== undefined ? members[0] : schema;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}
