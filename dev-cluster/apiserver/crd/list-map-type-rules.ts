import type { StatusCause } from "../api-error.js";
import { child, forbidden, invalid, key, notSupported, RawValue, required } from "./field-errors.js";
import { goQuote } from "./go-format.js";
import {
  defaultOf,
  flag,
  itemsOf,
  property,
  type SchemaNode,
  schemaType,
  stringList,
  text,
} from "./schema-nodes.js";

/**
 * The CRD schema rules for `x-kubernetes-map-type`, `x-kubernetes-list-type` and
 * `x-kubernetes-list-map-keys`: the right node types, known values, map keys that are scalar
 * item properties, and items of set and map lists that can be told apart.
 */
export function validateListAndMapTypes(schema: SchemaNode, path: string): StatusCause[] {
  return [
    ...mapTypeErrors(schema, path),
    ...listTypeErrors(schema, path),
    ...listMapErrors(schema, path),
    ...keyShapeErrors(schema, path),
  ];
}

function typeMustBe(schema: SchemaNode, path: string, expected: string, extension: string): StatusCause[] {
  const type = schemaType(schema);
  if (type === expected) return [];
  const detail = `must be ${expected} if ${extension} is specified`;
  return [type === "" ? required(child(path, "type"), detail) : invalid(child(path, "type"), type, detail)];
}

function mapTypeErrors(schema: SchemaNode, path: string): StatusCause[] {
  if (!Object.hasOwn(schema, "x-kubernetes-map-type")) return [];
  const mapType = text(schema, "x-kubernetes-map-type");
  const causes = typeMustBe(schema, path, "object", "x-kubernetes-map-type");
  if (mapType !== "atomic" && mapType !== "granular") {
    causes.push(notSupported(child(path, "x-kubernetes-map-type"), mapType, ["atomic", "granular"]));
  }
  return causes;
}

function listTypeErrors(schema: SchemaNode, path: string): StatusCause[] {
  if (!Object.hasOwn(schema, "x-kubernetes-list-type")) return [];
  const listType = text(schema, "x-kubernetes-list-type");
  const causes = typeMustBe(schema, path, "array", "x-kubernetes-list-type");
  const items = itemsOf(schema);
  if (causes.length === 0 && listType === "set" && items !== undefined)
    causes.push(...setItemErrors(items, path));
  if (!["atomic", "set", "map"].includes(listType)) {
    causes.push(notSupported(child(path, "x-kubernetes-list-type"), listType, ["atomic", "set", "map"]));
  }
  return causes;
}

/** Items of a set are compared whole, so nested lists and maps must be atomic. */
function setItemErrors(items: SchemaNode, path: string): StatusCause[] {
  const detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
  const itemListType = Object.hasOwn(items, "x-kubernetes-list-type")
    ? text(items, "x-kubernetes-list-type")
    : undefined;
  const itemsPath = child(path, "items");
  if (schemaType(items) === "array" && itemListType !== undefined && itemListType !== "atomic") {
    return [invalid(child(itemsPath, "x-kubernetes-list-type"), itemListType, detail)];
  }
  if (schemaType(items) === "object" && text(items, "x-kubernetes-map-type") !== "atomic") {
    // Upstream prints the items' list type here (usually unset), not the map type.
    return [invalid(child(itemsPath, "x-kubernetes-map-type"), itemListType ?? null, detail)];
  }
  return [];
}

function goStrings(values: readonly string[]): RawValue {
  return new RawValue(`[]string{${values.map(goQuote).join(", ")}}`);
}

function listMapErrors(schema: SchemaNode, path: string): StatusCause[] {
  const keys = stringList(schema, "x-kubernetes-list-map-keys");
  const hasListType = Object.hasOwn(schema, "x-kubernetes-list-type");
  const listType = text(schema, "x-kubernetes-list-type");
  const causes: StatusCause[] = [];
  if (keys.length > 0 && listType !== "map") {
    const detail = "must be map if x-kubernetes-list-map-keys is non-empty";
    const listTypePath = child(path, "x-kubernetes-list-type");
    causes.push(hasListType ? invalid(listTypePath, listType, detail) : required(listTypePath, detail));
  }
  if (listType !== "map") return causes;
  if (keys.length === 0) {
    causes.push(
      required(
        child(path, "x-kubernetes-list-map-keys"),
        "must not be empty if x-kubernetes-list-type is map",
      ),
    );
  }
  if (!Object.hasOwn(schema, "items")) {
    causes.push(required(child(path, "items"), "must have a schema if x-kubernetes-list-type is map"));
    return causes;
  }
  const items = itemsOf(schema);
  if (items === undefined) {
    causes.push(
      invalid(
        child(path, "items"),
        schema.items,
        "must only have a single schema if x-kubernetes-list-type is map",
      ),
    );
    return causes;
  }
  if (schemaType(items) !== "object") {
    const detail = "must be object if parent array's x-kubernetes-list-type is map";
    causes.push(invalid(child(path, "items", "type"), schemaType(items), detail));
    return causes;
  }
  const seen = new Set<string>();
  for (const name of keys) {
    const keySchema = property(items, name);
    if (keySchema === undefined) {
      causes.push(
        invalid(
          child(path, "x-kubernetes-list-map-keys"),
          goStrings(keys),
          "entries must all be names of item properties",
        ),
      );
    } else if (["array", "object"].includes(schemaType(keySchema))) {
      const detail = "must be a scalar type if parent array's x-kubernetes-list-type is map";
      causes.push(
        invalid(child(key(child(path, "items", "properties"), name), "type"), schemaType(items), detail),
      );
    }
    if (seen.has(name)) {
      causes.push(
        invalid(
          child(path, "x-kubernetes-list-map-keys"),
          goStrings(keys),
          "must not contain duplicate entries",
        ),
      );
    }
    seen.add(name);
  }
  return causes;
}

/** validateMapListKeysMapSet: items of set and map lists are never null, map keys always have a value. */
function keyShapeErrors(schema: SchemaNode, path: string): StatusCause[] {
  const items = itemsOf(schema);
  const listType = text(schema, "x-kubernetes-list-type");
  if (items === undefined || (listType !== "set" && listType !== "map")) return [];
  const causes: StatusCause[] = [];
  if (flag(items, "nullable")) {
    causes.push(
      forbidden(
        child(path, "items", "nullable"),
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    );
  }
  if (listType !== "map") return causes;
  const requiredKeys = new Set(stringList(items, "required"));
  for (const name of stringList(schema, "x-kubernetes-list-map-keys")) {
    const keySchema = property(items, name);
    if (keySchema === undefined) continue;
    const keyPath = key(child(path, "items", "properties"), name);
    if (!requiredKeys.has(name) && defaultOf(keySchema) === undefined) {
      causes.push(
        required(
          child(keyPath, "default"),
          "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
        ),
      );
    }
    if (flag(keySchema, "nullable")) {
      causes.push(
        forbidden(
          child(keyPath, "nullable"),
          "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
        ),
      );
    }
  }
  return causes;
}
