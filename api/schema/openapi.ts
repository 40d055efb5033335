import { Kind, type TSchema } from "@sinclair/typebox";
import { CRD_FORMAT, PRESERVE_UNKNOWN_FIELDS } from "./kube-types.js";

/**
 * Turns a TypeBox schema built from kube-types.ts into the structural OpenAPI v3 schema a CRD
 * needs: everything inline (no $ref), every node typed, string-literal unions as `enum`,
 * `T | null` as `nullable`, int-or-string as KubeVirt writes it, maps as additionalProperties.
 * A TypeBox construct with no structural equivalent throws rather than emitting a schema the
 * API server would reject.
 */

export type OpenApiSchema = { [keyword: string]: OpenApiValue };
export type OpenApiValue =
  | string
  | number
  | boolean
  | null
  | OpenApiValue[]
  | { [key: string]: OpenApiValue };

export class NonStructuralSchemaError extends Error {
  readonly reason = "NonStructuralSchema";
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`schema at ${path || "<root>"} has no structural form: ${detail}`);
    this.name = "NonStructuralSchemaError";
  }
}

/** Keywords copied from a TypeBox node to the CRD node when present. */
const COPIED_KEYWORDS = [
  "description",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "nullable",
];

export function toOpenApiSchema(schema: TSchema, path = ""): OpenApiSchema {
  const kind = schema[Kind];
  switch (kind) {
    case "Object":
      return objectNode(schema, path);
    case "Record":
      return recordNode(schema, path);
    case "Array":
      return withKeywords(schema, {
        type: "array",
        items: toOpenApiSchema(schema.items as TSchema, `${path}[]`),
      });
    case "String":
      return stringNode(schema);
    case "Integer":
      return withKeywords(schema, { type: "integer", ...formatOf(schema) });
    case "Number":
      return withKeywords(schema, { type: "number", ...formatOf(schema) });
    case "Boolean":
      return withKeywords(schema, { type: "boolean" });
    case "Literal":
      return literalUnion(schema, [schema], path);
    case "Union":
      return unionNode(schema, path);
    default:
      throw new NonStructuralSchemaError(path, `TypeBox kind ${String(kind)} is not supported`);
  }
}

function objectNode(schema: TSchema, path: string): OpenApiSchema {
  if (Reflect.get(schema, PRESERVE_UNKNOWN_FIELDS) === true) {
    return withKeywords(schema, { type: "object", "x-kubernetes-preserve-unknown-fields": true });
  }
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const names = Object.keys(properties).sort();
  const node: OpenApiSchema = { type: "object" };
  if (names.length > 0) {
    node.properties = Object.fromEntries(
      names.map((name) => [name, toOpenApiSchema(properties[name] as TSchema, child(path, name))]),
    );
  }
  const required = Array.isArray(schema.required) ? [...(schema.required as string[])].sort() : [];
  if (required.length > 0) node.required = required;
  return withKeywords(schema, node);
}

function recordNode(schema: TSchema, path: string): OpenApiSchema {
  const patterns = Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>);
  const valueSchema = patterns[0];
  if (valueSchema === undefined || patterns.length !== 1) {
    throw new NonStructuralSchemaError(path, "a record needs exactly one value schema");
  }
  return withKeywords(schema, {
    type: "object",
    additionalProperties: toOpenApiSchema(valueSchema, `${path}[*]`),
  });
}

function stringNode(schema: TSchema): OpenApiSchema {
  const crdFormat = schema[CRD_FORMAT];
  const node: OpenApiSchema = { type: "string" };
  if (typeof crdFormat === "string") node.format = crdFormat;
  return withKeywords(schema, node);
}

function unionNode(schema: TSchema, path: string): OpenApiSchema {
  const members = (schema.anyOf ?? []) as TSchema[];
  if (schema["x-kubernetes-int-or-string"] === true) return intOrStringNode(schema, members, path);
  const nonNull = members.filter((member) => member[Kind] !== "Null");
  if (nonNull.length === members.length - 1 && nonNull.length === 1) {
    const inner = toOpenApiSchema(nonNull[0] as TSchema, path);
    return withKeywords(schema, { ...inner, nullable: true });
  }
  if (members.length > 0 && members.every((member) => member[Kind] === "Literal")) {
    return literalUnion(schema, members, path);
  }
  throw new NonStructuralSchemaError(path, "only literal unions, T | null and int-or-string are structural");
}

/** KubeVirt's form: `anyOf: [{type: integer}, {type: string}]` plus the string's pattern, if any. */
function intOrStringNode(schema: TSchema, members: TSchema[], path: string): OpenApiSchema {
  const kinds = members.map((member) => member[Kind]).sort();
  if (kinds.join() !== "Integer,String")
    throw new NonStructuralSchemaError(path, "int-or-string must be Integer | String");
  const stringMember = members.find((member) => member[Kind] === "String");
  const node: OpenApiSchema = {
    anyOf: [{ type: "integer" }, { type: "string" }],
    "x-kubernetes-int-or-string": true,
  };
  if (typeof stringMember?.pattern === "string") node.pattern = stringMember.pattern;
  return withKeywords(schema, node);
}

function literalUnion(schema: TSchema, members: TSchema[], path: string): OpenApiSchema {
  const values = members.map((member) => member.const);
  if (!values.every((value): value is string => typeof value === "string")) {
    throw new NonStructuralSchemaError(path, "only string literals can become an enum");
  }
  return withKeywords(schema, { type: "string", enum: values });
}

function formatOf(schema: TSchema): OpenApiSchema {
  return typeof schema.format === "string" ? { format: schema.format } : {};
}

/** Copies the documented keywords and every `x-kubernetes-*` extension (except ones set here). */
function withKeywords(schema: TSchema, node: OpenApiSchema): OpenApiSchema {
  for (const keyword of COPIED_KEYWORDS) {
    const value = schema[keyword] as OpenApiValue | undefined;
    if (value !== undefined && node[keyword] === undefined) node[keyword] = value;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword.startsWith("x-kubernetes-") && node[keyword] === undefined)
      node[keyword] = value as OpenApiValue;
  }
  return node;
}

function child(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}
