import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { selectableFieldSegments } from "./crd-version-parts.js";

/** A selectable field: the name field selectors use (`spec.color`) and where its value is. */
export interface SelectableField {
  name: string;
  segments: string[];
}

/** The selectable fields a CRD version declares (`selectableFields[].jsonPath`). */
export function selectableFieldsOf(declared: JsonValue[]): SelectableField[] {
  const fields: SelectableField[] = [];
  for (const entry of declared) {
    if (!isJsonObject(entry) || typeof entry.jsonPath !== "string") continue;
    const segments = selectableFieldSegments(entry.jsonPath);
    if (segments !== undefined) fields.push({ name: segments.join("."), segments });
  }
  return fields;
}

/**
 * The values field selectors match on: strings as they are, booleans and integers in their text
 * form, and "" for a missing field (as kube-apiserver does).
 */
export function selectableFieldValues(object: JsonObject, fields: SelectableField[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    let node: JsonValue | undefined = object;
    for (const segment of field.segments) node = isJsonObject(node) ? node[segment] : undefined;
    values[field.name] = textOf(node);
  }
  return values;
}

function textOf(value: JsonValue | undefined): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isInteger(value)) return value.toFixed(0);
  return "";
}
