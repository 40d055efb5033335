import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import {
  additionalPropertiesOf,
  defaultOf,
  flag,
  itemsOf,
  propertiesOf,
  type SchemaNode,
} from "./schema-nodes.js";

/**
 * defaulting.Default: fills in the `default` of every declared property that is missing (or null
 * where null is not allowed), in place, recursing through properties, additionalProperties and
 * items. Defaults are deep-copied so objects never share them with the schema.
 */
export function applySchemaDefaults(object: JsonValue, schema: JsonObject): void {
  defaultValue(object, schema);
}

function isNonNullableNull(value: JsonValue | undefined, schema: SchemaNode | undefined): boolean {
  return value === null && schema !== undefined && !flag(schema, "nullable");
}

function defaultValue(value: JsonValue, schema: SchemaNode | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    const itemDefault = items === undefined ? undefined : defaultOf(items);
    value.forEach((item, position) => {
      if (itemDefault !== undefined && isNonNullableNull(item, items))
        value[position] = cloneJson(itemDefault);
      defaultValue(value[position] ?? null, items);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  const properties = propertiesOf(schema);
  for (const [name, propertySchema] of properties) {
    const fallback = defaultOf(propertySchema);
    if (fallback === undefined) continue;
    if (!Object.hasOwn(value, name) || isNonNullableNull(value[name], propertySchema))
      value[name] = cloneJson(fallback);
  }
  const declared = new Map(properties);
  const additional = additionalPropertiesOf(schema)?.schema;
  for (const name of Object.keys(value)) {
    const propertySchema = declared.get(name);
    if (propertySchema !== undefined) {
      defaultValue(value[name] ?? null, propertySchema);
    } else if (additional !== undefined) {
      const fallback = defaultOf(additional);
      if (fallback !== undefined && isNonNullableNull(value[name], additional))
        value[name] = cloneJson(fallback);
      defaultValue(value[name] ?? null, additional);
    }
  }
}
