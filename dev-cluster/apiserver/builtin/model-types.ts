import * as clientModels from "@kubernetes/client-node/dist/gen/models/all.js";
import type { JsonObject } from "../json.js";

/**
 * The structure of the built-in kinds (which fields exist, and whether each is an object, a list,
 * a map or a scalar), read from the attribute maps of @kubernetes/client-node's generated models.
 * Those are compiled from the upstream OpenAPI document, so pruning and the OpenAPI schemas get
 * every field of every nested type without a hand-written copy. (kubernetes-models only ships
 * compiled validators, which cannot be walked.)
 */
export type ModelType =
  | { shape: "struct"; name: string }
  | { shape: "array"; items: ModelType }
  | { shape: "map"; values: ModelType }
  | { shape: "scalar"; schema: JsonObject }
  /** Arbitrary JSON (RawExtension, JSON, FieldsV1): neither pruned nor described further. */
  | { shape: "any" };

interface Attribute {
  baseName: string;
  type: string;
  format: string;
}

const registry: ReadonlyMap<string, unknown> = new Map(Object.entries(clientModels));
const fieldCache = new Map<string, ReadonlyMap<string, ModelType>>();

function isAttribute(value: unknown): value is Attribute {
  if (typeof value !== "object" || value === null) return false;
  const { baseName, type, format } = value as Record<string, unknown>;
  return typeof baseName === "string" && typeof type === "string" && typeof format === "string";
}

function attributesOf(modelName: string): Attribute[] {
  const model = registry.get(modelName);
  if (
    typeof model !== "function" ||
    !("getAttributeTypeMap" in model) ||
    typeof model.getAttributeTypeMap !== "function"
  ) {
    throw new Error(`@kubernetes/client-node has no model ${modelName}`, { cause: { modelName } });
  }
  const attributes: unknown = model.getAttributeTypeMap();
  if (!Array.isArray(attributes) || !attributes.every(isAttribute)) {
    throw new Error(`the attribute map of ${modelName} has an unexpected shape`, { cause: { modelName } });
  }
  return attributes;
}

function scalarSchema(type: string, format: string): JsonObject | undefined {
  switch (type) {
    case "string":
      return format === "byte" ? { type: "string", format: "byte" } : { type: "string" };
    case "boolean":
      return { type: "boolean" };
    case "number":
      return format === "int32" || format === "int64" ? { type: "integer", format } : { type: "number" };
    case "Date":
    case "V1MicroTime":
      return { type: "string", format: "date-time" };
    case "IntOrString":
      return { type: "string", format: "int-or-string", "x-kubernetes-int-or-string": true };
    default:
      return undefined;
  }
}

/** Parses a client-node type expression: `V1PodSpec`, `Array<V1Container>`, `{ [key: string]: string; }`, ... */
export function parseModelType(type: string, format = ""): ModelType {
  const array = /^Array<(.+)>$/.exec(type);
  if (array?.[1]) return { shape: "array", items: parseModelType(array[1], format) };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map?.[1]) return { shape: "map", values: parseModelType(map[1], format) };
  if (type === "any" || type === "object") return { shape: "any" };
  const scalar = scalarSchema(type, format);
  if (scalar) return { shape: "scalar", schema: scalar };
  return { shape: "struct", name: type };
}

/** The fields of a struct model, by JSON name. */
export function structFields(modelName: string): ReadonlyMap<string, ModelType> {
  const cached = fieldCache.get(modelName);
  if (cached) return cached;
  const fields = new Map(
    attributesOf(modelName).map((a) => [a.baseName, parseModelType(a.type, a.format)] as const),
  );
  fieldCache.set(modelName, fields);
  return fields;
}

/** The type of `key` inside a value of type `parent`, or undefined when `parent` has no such field. */
export function childType(parent: ModelType, key: string): ModelType | undefined {
  switch (parent.shape) {
    case "struct":
      return structFields(parent.name).get(key);
    case "map":
      return parent.values;
    case "array":
      return /^\d+$/.test(key) ? parent.items : undefined;
    case "any":
      return parent;
    case "scalar":
      return undefined;
  }
}
