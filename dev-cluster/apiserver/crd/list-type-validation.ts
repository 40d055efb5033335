import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { child, duplicate, index, invalid, key } from "./field-errors.js";
import {
  additionalPropertiesOf,
  itemsOf,
  property,
  type SchemaNode,
  stringList,
  text,
} from "./schema-nodes.js";

/**
 * apiextensions' listtype.ValidateListSetsAndMaps: items of an `x-kubernetes-list-type: set`
 * list are unique, and items of a `map` list are unique by their key fields. Like upstream, only
 * the second occurrence of a value is reported.
 */
export function validateListTypes(value: JsonValue, schema: SchemaNode, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  walk(value, schema, path, causes);
  return causes;
}

function walk(value: JsonValue, schema: SchemaNode, path: string, causes: StatusCause[]): void {
  if (Array.isArray(value)) {
    checkList(value, schema, path, causes);
    const items = itemsOf(schema);
    if (items !== undefined)
      value.forEach((item, position) => {
        walk(item, items, index(path, position), causes);
      });
    return;
  }
  if (!isJsonObject(value)) return;
  const additional = additionalPropertiesOf(schema)?.schema;
  for (const [name, item] of Object.entries(value)) {
    if (additional !== undefined) walk(item, additional, key(path, name), causes);
    const propertySchema = property(schema, name);
    if (propertySchema !== undefined) walk(item, propertySchema, child(path, name), causes);
  }
}

function checkList(list: JsonValue[], schema: SchemaNode, path: string, causes: StatusCause[]): void {
  const listType = text(schema, "x-kubernetes-list-type");
  if (listType === "set") {
    for (const position of secondOccurrences(list))
      causes.push(duplicate(index(path, position), list[position]));
  } else if (listType === "map") {
    causes.push(...mapListErrors(list, stringList(schema, "x-kubernetes-list-map-keys"), path));
  }
}

/** Indexes where a value is seen for the second time (later repeats are not reported again). */
function secondOccurrences(values: readonly JsonValue[]): number[] {
  const seen = new Map<string, number>();
  const found: number[] = [];
  values.forEach((value, position) => {
    const identity = identityOf(value);
    const times = seen.get(identity) ?? 0;
    seen.set(identity, times + 1);
    if (times === 1) found.push(position);
  });
  return found;
}

/** A key that is equal for equal JSON values (object key order does not matter). */
function identityOf(value: JsonValue | undefined): string {
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return `[${value.map(identityOf).join(",")}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${identityOf(value[name])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

function mapListErrors(list: JsonValue[], keyFields: string[], path: string): StatusCause[] {
  const notObject = list.findIndex((item) => item !== null && !isJsonObject(item));
  if (notObject >= 0) {
    return [
      invalid(index(path, notObject), list[notObject], "must be an object for an array of list-type map"),
    ];
  }
  // The key of an item: its key fields that are present (a null item has none).
  const keys = list.map((item) => {
    const keyOfItem: JsonObject = {};
    for (const field of keyFields) {
      if (isJsonObject(item) && Object.hasOwn(item, field)) keyOfItem[field] = item[field] ?? null;
    }
    return keyOfItem;
  });
  return secondOccurrences(keys).map((position) => duplicate(index(path, position), keys[position]));
}
