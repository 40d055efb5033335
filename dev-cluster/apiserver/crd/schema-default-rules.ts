import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import type { StatusCause } from "../api-error.js";
import { cloneJson, type JsonValue } from "../json.js";
import { validateEmbeddedResources } from "./embedded-resources.js";
import { child, invalid, key } from "./field-errors.js";
import { OpenApiErrors } from "./openapi-messages.js";
import { validateAgainstSchema } from "./openapi-validator.js";
import { pruneUnknown } from "./pruning.js";
import { defaultOf, flag, itemsOf, propertiesOf, type SchemaNode } from "./schema-nodes.js";

const META_FIELDS = new Set(["metadata", "kind", "apiVersion"]);

/**
 * defaulting.ValidateDefaults: every `default` must survive pruning unchanged and validate
 * against the schema it sits in. additionalProperties are not followed (defaults are forbidden
 * there for metadata, and meaningless elsewhere).
 */
export function defaultValueErrors(schema: SchemaNode, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  visit(schema, path, false, true, causes);
  return causes;
}

function visit(
  schema: SchemaNode,
  path: string,
  insideMeta: boolean,
  isRoot: boolean,
  causes: StatusCause[],
): void {
  const embedded = isRoot || flag(schema, "x-kubernetes-embedded-resource");
  const inMeta = embedded ? false : insideMeta;
  const value = defaultOf(schema);
  if (value !== undefined)
    causes.push(...defaultErrors(value, schema, child(path, "default"), inMeta, embedded));
  const items = itemsOf(schema);
  if (items !== undefined) visit(items, child(path, "items"), inMeta, false, causes);
  for (const [name, propertySchema] of propertiesOf(schema)) {
    const subInsideMeta = inMeta || (embedded && META_FIELDS.has(name));
    visit(propertySchema, key(child(path, "properties"), name), subInsideMeta, false, causes);
  }
}

function defaultErrors(
  value: JsonValue,
  schema: SchemaNode,
  path: string,
  insideMeta: boolean,
  embedded: boolean,
): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!insideMeta) {
    const pruned = cloneJson(value);
    pruneUnknown(pruned, schema, embedded);
    if (!jsonEqual(pruned, value)) causes.push(invalid(path, value, "must not have unknown fields"));
    const metaErrors = validateEmbeddedResources(value, schema, path);
    if (metaErrors.length > 0) return [...causes, ...metaErrors];
  }
  const errors = new OpenApiErrors(path);
  validateAgainstSchema(value, schema, "", errors);
  return [...causes, ...errors.causes];
}
