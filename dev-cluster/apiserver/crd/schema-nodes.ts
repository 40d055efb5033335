import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/**
 * Tolerant readers for OpenAPI v3 schema nodes as they appear in a CRD (JSONSchemaProps in JSON
 * form). A keyword of the wrong shape reads as absent; the CRD validation reports such shapes.
 */

export type SchemaNode = JsonObject;

export function schemaType(schema: SchemaNode): string {
  return typeof schema.type === "string" ? schema.type : "";
}

export function flag(schema: SchemaNode, keyword: string): boolean {
  return schema[keyword] === true;
}

export function text(schema: SchemaNode, keyword: string): string {
  const value = schema[keyword];
  return typeof value === "string" ? value : "";
}

export function numberKeyword(schema: SchemaNode, keyword: string): number | undefined {
  const value = schema[keyword];
  return typeof value === "number" ? value : undefined;
}

/** `properties` as name → schema pairs, in declaration order. */
export function propertiesOf(schema: SchemaNode): [string, SchemaNode][] {
  const properties = schema.properties;
  if (!isJsonObject(properties)) return [];
  return Object.entries(properties).filter((entry): entry is [string, SchemaNode] => isJsonObject(entry[1]));
}

export function property(schema: SchemaNode, name: string): SchemaNode | undefined {
  const properties = schema.properties;
  if (!isJsonObject(properties) || !Object.hasOwn(properties, name)) return undefined;
  const found = properties[name];
  return isJsonObject(found) ? found : undefined;
}

export function hasProperties(schema: SchemaNode): boolean {
  return propertiesOf(schema).length > 0;
}

/** `items` when it is a single schema (an array of schemas is not structural). */
export function itemsOf(schema: SchemaNode): SchemaNode | undefined {
  return isJsonObject(schema.items) ? schema.items : undefined;
}

/**
 * The structural view of `additionalProperties`: absent → undefined; a schema → that schema;
 * `true`/`false` → `{ allows, schema: undefined }`.
 */
export interface AdditionalProperties {
  allows: boolean;
  schema: SchemaNode | undefined;
}

export function additionalPropertiesOf(schema: SchemaNode): AdditionalProperties | undefined {
  const value = schema.additionalProperties;
  if (isJsonObject(value)) return { allows: true, schema: value };
  if (typeof value === "boolean") return { allows: value, schema: undefined };
  return undefined;
}

/** The schemas of a junctor (`allOf`, `anyOf`, `oneOf`). */
export function junctor(schema: SchemaNode, keyword: "allOf" | "anyOf" | "oneOf"): SchemaNode[] {
  const value = schema[keyword];
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

export function notOf(schema: SchemaNode): SchemaNode | undefined {
  return isJsonObject(schema.not) ? schema.not : undefined;
}

export function stringList(schema: SchemaNode, keyword: string): string[] {
  const value = schema[keyword];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

export function hasKeyword(schema: SchemaNode, keyword: string): boolean {
  return Object.hasOwn(schema, keyword) && schema[keyword] !== undefined;
}

export function defaultOf(schema: SchemaNode): JsonValue | undefined {
  return Object.hasOwn(schema, "default") && schema.default !== null ? schema.default : undefined;
}

/** The schema that applies to the value under `name` of an object: a property or additionalProperties. */
export function fieldSchema(schema: SchemaNode | undefined, name: string): SchemaNode | undefined {
  if (schema === undefined) return undefined;
  return property(schema, name) ?? additionalPropertiesOf(schema)?.schema;
}
