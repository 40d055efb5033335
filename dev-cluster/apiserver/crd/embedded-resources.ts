import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { isDns1035Label, isDns1123Label, pathSegmentNameErrors } from "./dns-names.js";
import { child, index, invalid, key, required } from "./field-errors.js";
import { additionalPropertiesOf, flag, itemsOf, property, type SchemaNode } from "./schema-nodes.js";

/**
 * apiextensions' objectmeta.Validate: every value under a schema node with
 * `x-kubernetes-embedded-resource: true` is a Kubernetes object, so it needs an apiVersion and a
 * kind, and its metadata must be valid ObjectMeta. Paths are field paths (`spec.template.kind`,
 * `spec.map[key].kind`).
 */
export function validateEmbeddedResources(value: JsonValue, schema: SchemaNode, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  walk(value, schema, path, causes);
  return causes;
}

function walk(value: JsonValue, schema: SchemaNode, path: string, causes: StatusCause[]): void {
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items !== undefined)
      value.forEach((item, position) => {
        walk(item, items, index(path, position), causes);
      });
    return;
  }
  if (!isJsonObject(value)) return;
  if (flag(schema, "x-kubernetes-embedded-resource")) causes.push(...embeddedResourceErrors(value, path));
  const additional = additionalPropertiesOf(schema)?.schema;
  for (const [name, item] of Object.entries(value)) {
    const propertySchema = property(schema, name);
    if (propertySchema !== undefined) walk(item, propertySchema, child(path, name), causes);
    else if (additional !== undefined) walk(item, additional, key(path, name), causes);
  }
}

function embeddedResourceErrors(object: JsonObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!Object.hasOwn(object, "apiVersion")) causes.push(required(child(path, "apiVersion")));
  if (!Object.hasOwn(object, "kind")) causes.push(required(child(path, "kind")));
  if (Object.hasOwn(object, "apiVersion"))
    causes.push(...apiVersionErrors(object.apiVersion ?? null, child(path, "apiVersion")));
  if (Object.hasOwn(object, "kind")) causes.push(...kindErrors(object.kind ?? null, child(path, "kind")));
  if (Object.hasOwn(object, "metadata"))
    causes.push(...metadataErrors(object.metadata ?? null, child(path, "metadata")));
  return causes;
}

function apiVersionErrors(value: JsonValue, path: string): StatusCause[] {
  if (typeof value !== "string") return [invalid(path, value, "must be a string")];
  if (value === "") return [required(path)];
  // schema.ParseGroupVersion accepts `v1` and `group/v1`, nothing with more slashes.
  if (value.split("/").length > 2) return [invalid(path, value, `unexpected GroupVersion string: ${value}`)];
  return [];
}

function kindErrors(value: JsonValue, path: string): StatusCause[] {
  if (typeof value !== "string") return [invalid(path, value, "must be a string")];
  if (value === "") return [required(path)];
  const errors = isDns1035Label(value.toLowerCase());
  if (errors.length === 0) return [];
  return [invalid(path, value, `may have mixed case, but should otherwise match: ${errors.join(",")}`)];
}

/** The ObjectMeta fields whose JSON type a strict decode would check, and the Go type it names. */
const META_FIELD_TYPES: Record<string, { test: (value: JsonValue) => boolean; goType: string }> = {
  name: { test: (value) => typeof value === "string", goType: "string" },
  generateName: { test: (value) => typeof value === "string", goType: "string" },
  namespace: { test: (value) => typeof value === "string", goType: "string" },
  labels: { test: isStringMap, goType: "map[string]string" },
  annotations: { test: isStringMap, goType: "map[string]string" },
  finalizers: {
    test: (value) => Array.isArray(value) && value.every((item) => typeof item === "string"),
    goType: "[]string",
  },
};

function isStringMap(value: JsonValue): boolean {
  return isJsonObject(value) && Object.values(value).every((item) => typeof item === "string");
}

function metadataErrors(value: JsonValue, path: string): StatusCause[] {
  if (value === null) return [];
  if (!isJsonObject(value)) {
    return [
      invalid(path, value, `json: cannot unmarshal ${jsonKind(value)} into Go value of type v1.ObjectMeta`),
    ];
  }
  for (const [field, { test, goType }] of Object.entries(META_FIELD_TYPES)) {
    const item = value[field];
    if (item === undefined || item === null || test(item)) continue;
    return [
      invalid(
        path,
        value,
        `json: cannot unmarshal ${jsonKind(item)} into Go struct field ObjectMeta.${field} of type ${goType}`,
      ),
    ];
  }
  return objectMetaErrors(value, path);
}

function jsonKind(value: JsonValue): string {
  if (Array.isArray(value)) return "array";
  if (isJsonObject(value)) return "object";
  return typeof value;
}

/** ValidateObjectMeta with ValidatePathSegmentName, as used for embedded objects (an empty name is fine). */
function objectMetaErrors(meta: JsonObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = typeof meta.name === "string" && meta.name !== "" ? meta.name : "fakename";
  for (const message of pathSegmentNameErrors(name, false))
    causes.push(invalid(child(path, "name"), name, message));
  if (typeof meta.generateName === "string" && meta.generateName !== "") {
    for (const message of pathSegmentNameErrors(meta.generateName, true)) {
      causes.push(invalid(child(path, "generateName"), meta.generateName, message));
    }
  }
  if (typeof meta.namespace === "string" && meta.namespace !== "") {
    for (const message of isDns1123Label(meta.namespace)) {
      causes.push(invalid(child(path, "namespace"), meta.namespace, message));
    }
  }
  return causes;
}
