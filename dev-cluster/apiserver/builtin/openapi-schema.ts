import { isJsonObject, type JsonObject } from "../json.js";
import type { FieldSemantics, FieldSemanticsLookup } from "../resource-type.js";
import { type ModelType, structFields } from "./model-types.js";

/**
 * The OpenAPI v3 schema of a built-in kind, generated from its model structure with every nested
 * type inlined. kubectl's strategic-merge computation walks `properties` field by field and fails
 * on a field it cannot find, so the schema must be complete; the patch and list extensions come
 * from the kind's field semantics. Field descriptions are not available offline: only the kind
 * and its top-level fields are described (enough for `kubectl explain`).
 */
export function buildOpenApiSchema(
  rootModel: string,
  description: string,
  semantics: FieldSemanticsLookup,
): JsonObject {
  const schema = structSchema(rootModel, [], [], semantics);
  schema.description = description;
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  for (const [field, text] of Object.entries(topLevelDescriptions)) {
    const property = properties[field];
    if (isJsonObject(property)) property.description = text;
  }
  return schema;
}

const topLevelDescriptions: Readonly<Record<string, string>> = {
  apiVersion:
    "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.",
  kind: "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.",
  metadata: "Standard object's metadata.",
  spec: "Specification of the desired behavior of the object.",
  status: "Most recently observed status of the object. Populated by the system. Read-only.",
};

function structSchema(
  modelName: string,
  path: readonly string[],
  inProgress: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonObject {
  // Only JSONSchemaProps refers to itself; its inner levels stay open objects.
  if (inProgress.includes(modelName)) return { type: "object", "x-kubernetes-preserve-unknown-fields": true };
  const properties: JsonObject = {};
  for (const [field, type] of structFields(modelName)) {
    properties[field] = typeSchema(type, [...path, field], [...inProgress, modelName], semantics);
  }
  return { type: "object", properties };
}

function typeSchema(
  type: ModelType,
  path: readonly string[],
  inProgress: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonObject {
  switch (type.shape) {
    case "scalar":
      return { ...type.schema };
    case "any":
      return { "x-kubernetes-preserve-unknown-fields": true };
    case "struct":
      return withMapSemantics(structSchema(type.name, path, inProgress, semantics), semantics(path));
    case "map":
      return withMapSemantics(
        { type: "object", additionalProperties: typeSchema(type.values, path, inProgress, semantics) },
        semantics(path),
      );
    case "array":
      return withListSemantics(
        { type: "array", items: typeSchema(type.items, path, inProgress, semantics) },
        semantics(path),
      );
  }
}

function withMapSemantics(schema: JsonObject, semantics: FieldSemantics | undefined): JsonObject {
  if (semantics?.map) schema["x-kubernetes-map-type"] = semantics.map;
  return schema;
}

/** Both the server-side apply list markers and the strategic-merge ones (`keys[0]` is the merge key). */
function withListSemantics(schema: JsonObject, semantics: FieldSemantics | undefined): JsonObject {
  const list = semantics?.list;
  if (!list) return schema;
  schema["x-kubernetes-list-type"] = list.type;
  if (list.type === "atomic") return schema;
  schema["x-kubernetes-patch-strategy"] = semantics.retainKeys ? "merge,retainKeys" : "merge";
  if (list.type === "map") {
    schema["x-kubernetes-list-map-keys"] = [...list.keys];
    const mergeKey = list.keys[0];
    if (mergeKey !== undefined) schema["x-kubernetes-patch-merge-key"] = mergeKey;
  }
  return schema;
}
