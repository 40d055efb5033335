import type { StatusCause } from "../api-error.js";
import { isJsonObject } from "../json.js";
import { invalid } from "./field-errors.js";
import { openApiSchemaErrors } from "./openapi-schema-rules.js";
import { defaultValueErrors } from "./schema-default-rules.js";
import { hasKeyword, type SchemaNode } from "./schema-nodes.js";
import { completenessErrors, structuralInvariantErrors } from "./structural-invariants.js";

/**
 * Checks a CRD version's `openAPIV3Schema` the way apiextensions-apiserver does on CRD writes:
 * the OpenAPI keywords CRDs may use, the structural-schema rules (types everywhere, junctors
 * only constrain values, metadata left alone, int-or-string and embedded-resource shapes), and
 * the defaults. `path` is where the schema sits, e.g. `spec.versions[0].schema.openAPIV3Schema`.
 */
export function checkStructuralSchema(schema: unknown, path: string): StatusCause[] {
  if (!isJsonObject(schema)) return [invalid(path, "", "must be an object")];
  const openApi = openApiSchemaErrors(schema, path);
  const unsupported = unsupportedKeyword(schema);
  if (unsupported !== undefined) {
    // Such a schema cannot even be converted; upstream names the cause only when nothing else did.
    return openApi.length > 0 ? openApi : [invalid(path, "", unsupported)];
  }
  const structural = sortedLikeUpstream([
    ...structuralInvariantErrors(schema, "root", path),
    ...completenessErrors(schema, path),
  ]);
  const defaults = structural.length === 0 ? defaultValueErrors(schema, path) : [];
  return [...structural, ...defaults, ...openApi];
}

/** ValidateStructural sorts its errors by their text, since it walks Go maps. */
function sortedLikeUpstream(causes: StatusCause[]): StatusCause[] {
  const text = (cause: StatusCause) => `${cause.field ?? ""}: ${cause.message}`;
  return [...causes].sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

/** The error of schema.NewStructural for a keyword a structural schema cannot hold, if any. */
function unsupportedKeyword(schema: SchemaNode): string | undefined {
  for (const [keyword, name] of [
    ["id", "id"],
    ["$schema", "schema"],
    ["$ref", "$ref"],
    ["patternProperties", "patternProperties"],
    ["dependencies", "dependencies"],
    ["additionalItems", "additionalItems"],
    ["definitions", "definitions"],
  ] as const) {
    if (hasKeyword(schema, keyword) && schema[keyword] !== "" && schema[keyword] !== null) {
      return `OpenAPIV3Schema '${name}' is not supported`;
    }
  }
  if (Array.isArray(schema.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  if (schema["x-kubernetes-preserve-unknown-fields"] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  for (const nested of nestedSchemas(schema)) {
    const found = unsupportedKeyword(nested);
    if (found !== undefined) return found;
  }
  return undefined;
}

function nestedSchemas(schema: SchemaNode): SchemaNode[] {
  const nested: SchemaNode[] = [];
  for (const keyword of ["items", "not", "additionalProperties"]) {
    const value = schema[keyword];
    if (isJsonObject(value)) nested.push(value);
  }
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const value = schema[keyword];
    if (Array.isArray(value)) nested.push(...value.filter(isJsonObject));
  }
  if (isJsonObject(schema.properties)) nested.push(...Object.values(schema.properties).filter(isJsonObject));
  return nested;
}
