import type { StatusCause } from "../api-error.js";
import { child, forbidden, index, invalid, key } from "./field-errors.js";
import {
  hasKeyword,
  itemsOf,
  junctor,
  notOf,
  propertiesOf,
  type SchemaNode,
  stringList,
  text,
} from "./schema-nodes.js";
import type { Level } from "./structural-invariants.js";

/**
 * schema.validateValueValidation / validateNestedValueValidation: inside allOf, anyOf, oneOf and
 * not a schema may only constrain values. Types, defaults, descriptions, additionalProperties,
 * nullable and the x-kubernetes extensions belong to the structural part, except the two
 * int-or-string patterns (`anyOf: [{type: integer}, {type: string}]`, also as `allOf[0]`).
 */
export function valueValidationErrors(
  schema: SchemaNode,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  level: Level,
  path: string,
): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!skipAnyOf) {
    junctor(schema, "anyOf").forEach((branch, position) => {
      causes.push(
        ...nestedValueValidationErrors(branch, false, level, index(child(path, "anyOf"), position)),
      );
    });
  }
  junctor(schema, "allOf").forEach((branch, position) => {
    const skip = skipFirstAllOfAnyOf && position === 0;
    causes.push(...nestedValueValidationErrors(branch, skip, level, index(child(path, "allOf"), position)));
  });
  junctor(schema, "oneOf").forEach((branch, position) => {
    causes.push(...nestedValueValidationErrors(branch, false, level, index(child(path, "oneOf"), position)));
  });
  const not = notOf(schema);
  if (not !== undefined) causes.push(...nestedValueValidationErrors(not, false, level, child(path, "not")));
  const pattern = text(schema, "pattern");
  if (pattern !== "") {
    try {
      new RegExp(pattern);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      causes.push(
        invalid(child(path, "pattern"), pattern, `must be a valid regular expression, but isn't: ${reason}`),
      );
    }
  }
  return causes;
}

/** Keywords a nested value validation may not use, with kube's wording of why. */
const FORBIDDEN_NESTED: [keyword: string, detail: string][] = [
  ["type", "must be empty to be structural"],
  ["additionalProperties", "must be undefined to be structural"],
  ["default", "must be undefined to be structural"],
  ["title", "must be empty to be structural"],
  ["description", "must be empty to be structural"],
  ["nullable", "must be false to be structural"],
  ["externalDocs", "must be undefined to be structural"],
  ["x-kubernetes-preserve-unknown-fields", "must be false to be structural"],
  ["x-kubernetes-embedded-resource", "must be false to be structural"],
  ["x-kubernetes-int-or-string", "must be false to be structural"],
  ["x-kubernetes-list-map-keys", "must be empty to be structural"],
  ["x-kubernetes-list-type", "must be undefined to be structural"],
  ["x-kubernetes-map-type", "must be undefined to be structural"],
  ["x-kubernetes-validations", "must be empty to be structural"],
];

/** Whether a keyword counts as set the way Go's zero values decide it (false, "" and [] do not). */
function isSet(schema: SchemaNode, keyword: string): boolean {
  if (!hasKeyword(schema, keyword)) return false;
  const value = schema[keyword];
  if (value === null) return false;
  // `additionalProperties: false` and `default: false` are set; a false flag or empty text is not.
  if (keyword === "additionalProperties" || keyword === "default") return true;
  if (value === false || value === "") return false;
  if (keyword === "x-kubernetes-list-map-keys") return stringList(schema, keyword).length > 0;
  return !(Array.isArray(value) && value.length === 0);
}

export function nestedValueValidationErrors(
  schema: SchemaNode,
  skipAnyOf: boolean,
  level: Level,
  path: string,
): StatusCause[] {
  const causes = valueValidationErrors(schema, skipAnyOf, false, level, path);
  const items = itemsOf(schema);
  if (items !== undefined)
    causes.push(...nestedValueValidationErrors(items, false, level, child(path, "items")));
  for (const [name, propertySchema] of propertiesOf(schema)) {
    causes.push(
      ...nestedValueValidationErrors(propertySchema, false, "field", key(child(path, "properties"), name)),
    );
  }
  for (const [keyword, detail] of FORBIDDEN_NESTED) {
    if (isSet(schema, keyword)) causes.push(forbidden(child(path, keyword), detail));
  }
  // Reasoning about metadata in a junctor could restrict it in ways the server does not expect.
  if (propertiesOf(schema).some(([name]) => name === "metadata")) {
    causes.push(
      forbidden(key(child(path, "properties"), "metadata"), "must not be specified in a nested context"),
    );
  }
  return causes;
}
