import type { StatusCause } from "../api-error.js";
import { isJsonObject } from "../json.js";
import { child, forbidden, index, invalid, key, notSupported } from "./field-errors.js";
import { validateListAndMapTypes } from "./list-map-type-rules.js";
import {
  additionalPropertiesOf,
  flag,
  hasKeyword,
  hasProperties,
  junctor,
  notOf,
  propertiesOf,
  type SchemaNode,
  schemaType,
  text,
} from "./schema-nodes.js";
import { validationRuleErrors } from "./validation-rule-shape.js";

/**
 * apiextensions' ValidateCustomResourceDefinitionOpenAPISchema: the OpenAPI keywords a CRD
 * schema may use at all (no $ref, definitions, dependencies, patternProperties, additionalItems,
 * id, uniqueItems, `type: null`, tuple items), defaults only where they can apply, and the
 * shape of the `x-kubernetes-*` extensions. Walks every node, inside junctors too.
 */
export function openApiSchemaErrors(schema: SchemaNode, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  visit(schema, path, { defaultsForbiddenBecause: undefined, insideResourceMeta: false }, true, causes);
  return causes;
}

interface Context {
  /** Set when defaults may not be used here: the reason kube appends to "must not be set". */
  defaultsForbiddenBecause: string | undefined;
  /** Inside the schema of apiVersion, kind or metadata of a resource. */
  insideResourceMeta: boolean;
}

const OPENAPI_TYPES = ["array", "boolean", "integer", "number", "object", "string"];
const META_FIELDS = new Set(["metadata", "kind", "apiVersion"]);

function visit(
  schema: SchemaNode,
  path: string,
  context: Context,
  isRoot: boolean,
  causes: StatusCause[],
): void {
  causes.push(...keywordErrors(schema, path, context));
  if (flag(schema, "uniqueItems")) {
    causes.push(
      forbidden(
        child(path, "uniqueItems"),
        "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
      ),
    );
  }
  const additional = additionalPropertiesOf(schema);
  if (additional !== undefined) {
    // properties are for structs, additionalProperties for maps: both would contradict ignoring unknown fields.
    if (hasProperties(schema) && (!additional.allows || additional.schema !== undefined)) {
      causes.push(
        forbidden(
          child(path, "additionalProperties"),
          "additionalProperties and properties are mutual exclusive",
        ),
      );
    }
    if (additional.schema !== undefined) {
      const inner = context.insideResourceMeta
        ? { ...context, defaultsForbiddenBecause: "inside additionalProperties applying to object metadata" }
        : context;
      visit(additional.schema, child(path, "additionalProperties"), inner, false, causes);
    }
  }
  for (const [name, propertySchema] of propertiesOf(schema)) {
    let inner = context;
    if ((isRoot || flag(schema, "x-kubernetes-embedded-resource")) && META_FIELDS.has(name)) {
      inner = { ...inner, insideResourceMeta: true };
      if (isRoot) inner = { ...inner, defaultsForbiddenBecause: `in top-level ${name}` };
    }
    visit(propertySchema, key(child(path, "properties"), name), inner, false, causes);
  }
  visitNested(schema, path, context, causes);
  causes.push(...extensionErrors(schema, path));
}

function visitNested(schema: SchemaNode, path: string, context: Context, causes: StatusCause[]): void {
  const not = notOf(schema);
  if (not !== undefined) visit(not, child(path, "not"), context, false, causes);
  for (const keyword of ["allOf", "oneOf", "anyOf"] as const) {
    junctor(schema, keyword).forEach((branch, position) => {
      visit(branch, index(child(path, keyword), position), context, false, causes);
    });
  }
  for (const keyword of ["definitions", "dependencies"]) {
    const map = schema[keyword];
    if (!isJsonObject(map)) continue;
    for (const [name, nested] of Object.entries(map)) {
      if (isJsonObject(nested)) visit(nested, key(child(path, keyword), name), context, false, causes);
    }
  }
  const items = schema.items;
  if (isJsonObject(items)) visit(items, child(path, "items"), context, false, causes);
  else if (Array.isArray(items)) {
    items.forEach((item, position) => {
      if (isJsonObject(item)) visit(item, index(child(path, "items"), position), context, false, causes);
    });
  }
}

/** specStandardValidatorV3.validate: keywords that are not supported in CRD schemas. */
function keywordErrors(schema: SchemaNode, path: string, context: Context): StatusCause[] {
  const causes: StatusCause[] = [];
  const type = schemaType(schema);
  if (type !== "" && !OPENAPI_TYPES.includes(type))
    causes.push(notSupported(child(path, "type"), type, OPENAPI_TYPES));
  if (
    hasKeyword(schema, "default") &&
    schema.default !== null &&
    context.defaultsForbiddenBecause !== undefined
  ) {
    causes.push(forbidden(child(path, "default"), `must not be set ${context.defaultsForbiddenBecause}`));
  }
  if (text(schema, "id") !== "") causes.push(forbidden(child(path, "id"), "id is not supported"));
  if (hasKeyword(schema, "additionalItems"))
    causes.push(forbidden(child(path, "additionalItems"), "additionalItems is not supported"));
  for (const keyword of ["patternProperties", "definitions"]) {
    const map = schema[keyword];
    if (isJsonObject(map) && Object.keys(map).length > 0) {
      causes.push(forbidden(child(path, keyword), `${keyword} is not supported`));
    }
  }
  if (hasKeyword(schema, "dependencies"))
    causes.push(forbidden(child(path, "dependencies"), "dependencies is not supported"));
  if (hasKeyword(schema, "$ref")) causes.push(forbidden(child(path, "$ref"), "$ref is not supported"));
  if (type === "null") {
    causes.push(forbidden(child(path, "type"), "type cannot be set to null, use nullable as an alternative"));
  }
  if (Array.isArray(schema.items) && schema.items.length > 0) {
    causes.push(forbidden(child(path, "items"), "items must be a schema object and not an array"));
  }
  if (context.insideResourceMeta && flag(schema, "x-kubernetes-embedded-resource")) {
    causes.push(
      forbidden(child(path, "x-kubernetes-embedded-resource"), "must not be used inside of resource meta"),
    );
  }
  return causes;
}

function extensionErrors(schema: SchemaNode, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (schema["x-kubernetes-preserve-unknown-fields"] === false) {
    causes.push(
      invalid(child(path, "x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"),
    );
  }
  causes.push(...validateListAndMapTypes(schema, path));
  causes.push(...validationRuleErrors(schema, path));
  return causes;
}
