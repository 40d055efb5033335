import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { child, forbidden, invalid, RawValue } from "./field-errors.js";
import { goStringList } from "./go-format.js";
import { checkStructuralSchema } from "./structural-schema.js";

/**
 * JSONSchemaProps' Go fields in declaration order with their JSON names, for the rule that a
 * schema whose status is a subresource may only use some keywords at its root (so that its
 * `properties.status` alone validates the status).
 */
const ROOT_FIELDS: [goName: string, jsonName: string][] = [
  ["ID", "id"],
  ["Schema", "$schema"],
  ["Ref", "$ref"],
  ["Description", "description"],
  ["Type", "type"],
  ["Nullable", "nullable"],
  ["Format", "format"],
  ["Title", "title"],
  ["Default", "default"],
  ["Maximum", "maximum"],
  ["ExclusiveMaximum", "exclusiveMaximum"],
  ["Minimum", "minimum"],
  ["ExclusiveMinimum", "exclusiveMinimum"],
  ["MaxLength", "maxLength"],
  ["MinLength", "minLength"],
  ["Pattern", "pattern"],
  ["MaxItems", "maxItems"],
  ["MinItems", "minItems"],
  ["UniqueItems", "uniqueItems"],
  ["MultipleOf", "multipleOf"],
  ["Enum", "enum"],
  ["MaxProperties", "maxProperties"],
  ["MinProperties", "minProperties"],
  ["Required", "required"],
  ["Items", "items"],
  ["AllOf", "allOf"],
  ["OneOf", "oneOf"],
  ["AnyOf", "anyOf"],
  ["Not", "not"],
  ["Properties", "properties"],
  ["AdditionalProperties", "additionalProperties"],
  ["PatternProperties", "patternProperties"],
  ["Dependencies", "dependencies"],
  ["AdditionalItems", "additionalItems"],
  ["Definitions", "definitions"],
  ["ExternalDocs", "externalDocs"],
  ["Example", "example"],
  ["XPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields"],
  ["XEmbeddedResource", "x-kubernetes-embedded-resource"],
  ["XIntOrString", "x-kubernetes-int-or-string"],
  ["XListMapKeys", "x-kubernetes-list-map-keys"],
  ["XListType", "x-kubernetes-list-type"],
  ["XMapType", "x-kubernetes-map-type"],
  ["XValidations", "x-kubernetes-validations"],
];

const ALLOWED_AT_ROOT = [
  "Description",
  "Type",
  "Format",
  "Title",
  "Maximum",
  "ExclusiveMaximum",
  "Minimum",
  "ExclusiveMinimum",
  "MaxLength",
  "MinLength",
  "Pattern",
  "MaxItems",
  "MinItems",
  "UniqueItems",
  "MultipleOf",
  "Required",
  "Items",
  "Properties",
  "ExternalDocs",
  "Example",
  "XPreserveUnknownFields",
  "XValidations",
];

/** Go's zero values: such a field counts as not set. */
function isZero(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || value === false || value === "";
}

function statusRootErrors(schema: JsonObject, path: string): StatusCause[] {
  for (const [goName, jsonName] of ROOT_FIELDS) {
    if (isZero(schema[jsonName])) continue;
    if (goName === "Type") {
      if (schema.type === "object") continue;
      const detail = `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`;
      return [invalid(child(path, "type"), schema.type, detail)];
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      const detail = `only ${goStringList(ALLOWED_AT_ROOT)} fields are allowed at the root of the schema if the status subresource is enabled`;
      return [invalid(path, new RawValue("apiextensions.JSONSchemaProps{...}"), detail)];
    }
  }
  return [];
}

/**
 * validateCustomResourceDefinitionValidation: `validation` is a CustomResourceValidation
 * (`{openAPIV3Schema}`) found at `path` (`spec.validation` or `spec.versions[i].schema`).
 */
export function customResourceValidationErrors(
  validation: JsonObject | undefined,
  statusSubresource: boolean,
  path: string,
): StatusCause[] {
  const schema = validation?.openAPIV3Schema;
  if (!isJsonObject(schema)) return [];
  const schemaPath = child(path, "openAPIV3Schema");
  const causes = statusSubresource ? statusRootErrors(schema, schemaPath) : [];
  if (schema.nullable === true)
    causes.push(forbidden(child(schemaPath, "nullable"), "nullable cannot be true at the root"));
  causes.push(...checkStructuralSchema(schema, schemaPath));
  return causes;
}
