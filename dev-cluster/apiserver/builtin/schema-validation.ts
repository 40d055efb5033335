import type { StatusCause } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import {
  childPath,
  indexPath,
  invalidField,
  notSupportedField,
  requiredField,
  typeInvalidField,
} from "./field-errors.js";
import { childType, type ModelType } from "./model-types.js";

/** A kubernetes-models class: its constructor takes the object and `validate()` throws ajv's ValidationError. */
export type ValidatingModel = new (data: never) => { validate(): void };

interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

function isSchemaError(value: unknown): value is SchemaError {
  if (typeof value !== "object" || value === null) return false;
  const { instancePath, keyword, params } = value as Record<string, unknown>;
  return (
    typeof instancePath === "string" &&
    typeof keyword === "string" &&
    typeof params === "object" &&
    params !== null
  );
}

function schemaErrorsOf(error: unknown): SchemaError[] | undefined {
  if (!(error instanceof Error) || !("errors" in error) || !Array.isArray(error.errors)) return undefined;
  return error.errors.every(isSchemaError) ? error.errors : undefined;
}

/**
 * Validates an object against the upstream OpenAPI schema of its kind (types, required fields,
 * enums, formats such as quantities) and reports the failures as kube-style causes.
 */
export function schemaCauses(model: ValidatingModel, rootModel: string, object: JsonObject): StatusCause[] {
  try {
    (Reflect.construct(model, [object]) as { validate(): void }).validate();
    return [];
  } catch (error) {
    const errors = schemaErrorsOf(error);
    if (!errors) throw error;
    return causesFromSchemaErrors(errors, rootModel, object);
  }
}

/** One cause per failing field: ajv reports each branch of a oneOf (int-or-string, quantity) separately. */
export function causesFromSchemaErrors(
  errors: SchemaError[],
  rootModel: string,
  object: JsonObject,
): StatusCause[] {
  const causes: StatusCause[] = [];
  const byPath = new Map<string, SchemaError[]>();
  for (const error of errors) {
    if (error.keyword === "required") {
      const missing = String(error.params.missingProperty ?? "");
      causes.push(
        requiredField(fieldPath(rootModel, object, [...pointerSegments(error.instancePath), missing])),
      );
      continue;
    }
    const group = byPath.get(error.instancePath) ?? [];
    group.push(error);
    byPath.set(error.instancePath, group);
  }
  for (const [pointer, group] of byPath) {
    const segments = pointerSegments(pointer);
    causes.push(
      causeForField(fieldPath(rootModel, object, segments), valueAtSegments(object, segments), group),
    );
  }
  return causes;
}

const typeNames: Readonly<Record<string, string>> = {
  string: "string",
  integer: "integer",
  number: "number",
  boolean: "boolean",
  object: "object",
  array: "array",
};

const quantityMessage =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

function causeForField(field: string, value: JsonValue | undefined, group: SchemaError[]): StatusCause {
  const types = group
    .filter((e) => e.keyword === "type")
    .map((e) => typeNames[String(e.params.type)] ?? String(e.params.type));
  const formats = group.filter((e) => e.keyword === "format").map((e) => String(e.params.format));
  if (formats.includes("quantity")) return invalidField(field, value, quantityMessage);
  if (group.some((e) => e.keyword === "oneOf")) {
    const options = [...types, ...formats.filter((f) => !isNumberFormat(f)).map((f) => `a valid ${f}`)];
    return invalidField(field, value, `must be ${[...new Set(options)].join(" or ")}`);
  }
  if (types.length > 0) return typeInvalidField(field, value, `must be of type ${types.join(" or ")}`);
  const enumError = group.find((e) => e.keyword === "enum");
  if (enumError) {
    const allowed = Array.isArray(enumError.params.allowedValues)
      ? enumError.params.allowedValues.map(String)
      : [];
    return notSupportedField(field, value, allowed);
  }
  const format = formats[0];
  if (format !== undefined) {
    return invalidField(
      field,
      value,
      isNumberFormat(format) ? `must fit in ${format}` : `must be a valid ${format}`,
    );
  }
  return invalidField(field, value, group[0]?.message ?? "is invalid");
}

function isNumberFormat(format: string): boolean {
  return format === "int32" || format === "int64" || format === "double" || format === "float";
}

function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function valueAtSegments(object: JsonValue, segments: string[]): JsonValue | undefined {
  let node: JsonValue | undefined = object;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (node !== null && typeof node === "object" && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** Formats pointer segments as a field.Path: struct fields dotted, list indexes and map keys in brackets. */
export function fieldPath(rootModel: string, object: JsonObject, segments: string[]): string {
  let path = "";
  let type: ModelType | undefined = { shape: "struct", name: rootModel };
  let node: JsonValue | undefined = object;
  for (const segment of segments) {
    const bracketed = Array.isArray(node) || type?.shape === "map" || type?.shape === "array";
    path = bracketed ? indexPath(path, segment) : childPath(path, segment);
    type = type ? childType(type, segment) : undefined;
    node = valueAtSegments(node ?? null, [segment]);
  }
  return path;
}
