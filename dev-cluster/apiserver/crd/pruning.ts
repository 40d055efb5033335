import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { pruneObjectMeta } from "./object-meta-pruning.js";
import {
  additionalPropertiesOf,
  defaultOf,
  fieldSchema,
  flag,
  itemsOf,
  property,
  type SchemaNode,
} from "./schema-nodes.js";

/**
 * Drops what a CRD's structural schema does not know from a custom resource, in place, the way
 * kube-apiserver decodes one: unknown fields go (except under
 * `x-kubernetes-preserve-unknown-fields`, where pruning resumes inside declared properties),
 * apiVersion/kind/metadata of the object and of embedded resources stay but metadata is reduced
 * to ObjectMeta's fields, and nulls in non-nullable fields without a default are removed.
 * Returns the dropped fields as kube names them in `unknown field "<path>"` warnings, sorted.
 */
export function pruneUnknownFields(
  object: JsonObject,
  schema: JsonObject,
  opts: { isResourceRoot: boolean },
): string[] {
  const pruned = pruneUnknown(object, schema, opts.isResourceRoot);
  pruned.push(...pruneEmbeddedMetadata(object, schema, opts.isResourceRoot));
  pruneNonNullableNulls(object, schema);
  return [...new Set(pruned)].sort();
}

const META_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

function isEmbedded(schema: SchemaNode | undefined): boolean {
  return schema !== undefined && flag(schema, "x-kubernetes-embedded-resource");
}

function joinKey(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

/** pruning.PruneWithOptions: only the schema-driven part, no metadata coercion. */
export function pruneUnknown(
  value: JsonValue,
  schema: SchemaNode | undefined,
  isResourceRoot: boolean,
): string[] {
  const root = isResourceRoot ? { ...schema, "x-kubernetes-embedded-resource": true } : schema;
  const pruned: string[] = [];
  prune(value, root, "", pruned);
  return pruned;
}

function prune(value: JsonValue, schema: SchemaNode | undefined, path: string, pruned: string[]): void {
  if (schema !== undefined && flag(schema, "x-kubernetes-preserve-unknown-fields")) {
    keepUnknown(value, schema, path, pruned);
    return;
  }
  if (Array.isArray(value)) {
    const items = schema === undefined ? undefined : itemsOf(schema);
    value.forEach((item, position) => {
      prune(item, items, `${path}[${position}]`, pruned);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  for (const name of Object.keys(value)) {
    if (isEmbedded(schema) && META_FIELDS.has(name)) continue;
    const childPath = joinKey(path, name);
    const propertySchema = schema === undefined ? undefined : property(schema, name);
    const additional = schema === undefined ? undefined : additionalPropertiesOf(schema);
    if (propertySchema !== undefined) prune(value[name] ?? null, propertySchema, childPath, pruned);
    else if (additional !== undefined) prune(value[name] ?? null, additional.schema, childPath, pruned);
    else {
      // Upstream does not report a top-level apiVersion/kind/metadata it drops.
      if (schema === undefined || !META_FIELDS.has(name) || path !== "") pruned.push(childPath);
      delete value[name];
    }
  }
}

/** Under x-kubernetes-preserve-unknown-fields: unknown fields stay, declared ones are pruned inside. */
function keepUnknown(value: JsonValue, schema: SchemaNode, path: string, pruned: string[]): void {
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items !== undefined)
      value.forEach((item, position) => {
        keepUnknown(item, items, `${path}[${position}]`, pruned);
      });
    return;
  }
  if (!isJsonObject(value)) return;
  for (const name of Object.keys(value)) {
    if (isEmbedded(schema) && META_FIELDS.has(name)) continue;
    const propertySchema = property(schema, name);
    const additional = additionalPropertiesOf(schema);
    if (propertySchema !== undefined) prune(value[name] ?? null, propertySchema, joinKey(path, name), pruned);
    else if (additional !== undefined)
      prune(value[name] ?? null, additional.schema, joinKey(path, name), pruned);
  }
}

/**
 * objectmeta.Coerce: the metadata of the object (when it is a resource root) and of every
 * embedded resource keeps only ObjectMeta's fields. Paths are field paths like
 * `spec.template.metadata.bogus`.
 */
function pruneEmbeddedMetadata(object: JsonObject, schema: SchemaNode, isResourceRoot: boolean): string[] {
  const pruned: string[] = [];
  if (isResourceRoot && isJsonObject(object.metadata))
    pruned.push(...pruneObjectMeta(object.metadata, "metadata"));
  coerce(object, schema, "", pruned, isResourceRoot);
  return pruned;
}

function coerce(value: JsonValue, schema: SchemaNode, path: string, pruned: string[], isRoot: boolean): void {
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items !== undefined)
      value.forEach((item, position) => {
        coerce(item, items, `${path}[${position}]`, pruned, false);
      });
    return;
  }
  if (!isJsonObject(value)) return;
  if (!isRoot && isEmbedded(schema) && isJsonObject(value.metadata)) {
    pruned.push(...pruneObjectMeta(value.metadata, joinKey(path, "metadata")));
    // An unset creationTimestamp does not survive the round trip through ObjectMeta.
    if (value.metadata.creationTimestamp === null) delete value.metadata.creationTimestamp;
  }
  for (const [name, item] of Object.entries(value)) {
    const propertySchema = property(schema, name);
    const additional = additionalPropertiesOf(schema)?.schema;
    if (propertySchema !== undefined) coerce(item, propertySchema, joinKey(path, name), pruned, false);
    else if (additional !== undefined) coerce(item, additional, `${path}[${name}]`, pruned, false);
  }
}

/**
 * defaulting.PruneNonNullableNullsWithoutDefaults: a null where the schema neither allows null
 * nor has a default is dropped (one with a default is defaulted later).
 */
export function pruneNonNullableNulls(value: JsonValue, schema: SchemaNode | undefined): void {
  if (Array.isArray(value)) {
    const items = schema === undefined ? undefined : itemsOf(schema);
    for (const item of value) pruneNonNullableNulls(item, items);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const name of Object.keys(value)) {
    const itemSchema = fieldSchema(schema, name);
    const item = value[name] ?? null;
    if (
      item === null &&
      itemSchema !== undefined &&
      !flag(itemSchema, "nullable") &&
      defaultOf(itemSchema) === undefined
    ) {
      delete value[name];
    } else pruneNonNullableNulls(item, itemSchema);
  }
}
