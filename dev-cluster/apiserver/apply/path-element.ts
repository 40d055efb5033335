import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/**
 * One step of a field path, spelled exactly as a key of `fieldsV1`: `f:<field name>`,
 * `k:<JSON object of the key fields>` (an item of a map-list), `v:<JSON value>` (an item of a
 * set-list) or `i:<index>`. Using the wire spelling keeps encoding trivial and makes two paths
 * equal exactly when their strings are equal.
 */
export type PathElement = string;
export type FieldPath = readonly PathElement[];

const FIELD = "f:";
const KEY = "k:";
const VALUE = "v:";
const INDEX = "i:";

/** JSON with object keys sorted, so equal keys and values always spell the same element. */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

export function fieldElement(name: string): PathElement {
  return FIELD + name;
}

/** The element of a map-list item: its key fields, sorted by name as upstream does. */
export function keyElement(keyFields: JsonObject): PathElement {
  return KEY + canonicalJson(keyFields);
}

/** The element of a set-list item. */
export function valueElement(value: JsonValue): PathElement {
  return VALUE + canonicalJson(value);
}

export type ParsedElement =
  | { kind: "field"; name: string }
  | { kind: "key"; fields: JsonObject }
  | { kind: "value"; value: JsonValue }
  | { kind: "index"; index: number };

/** Parses an element; throws an Error naming the element when it is malformed. */
export function parseElement(element: string): ParsedElement {
  const body = element.slice(2);
  if (element.startsWith(FIELD)) return { kind: "field", name: body };
  if (element.startsWith(INDEX) && /^\d+$/.test(body)) return { kind: "index", index: Number(body) };
  if (element.startsWith(KEY) || element.startsWith(VALUE)) {
    let parsed: JsonValue;
    try {
      parsed = JSON.parse(body) as JsonValue;
    } catch (cause) {
      throw new Error(`invalid path element ${JSON.stringify(element)}: not JSON`, { cause });
    }
    if (element.startsWith(VALUE)) return { kind: "value", value: parsed };
    if (isJsonObject(parsed)) return { kind: "key", fields: parsed };
  }
  throw new Error(`invalid path element ${JSON.stringify(element)}`);
}

/** Re-spells an element read from the wire so it compares equal to the ones built here. */
export function canonicalElement(element: string): PathElement {
  const parsed = parseElement(element);
  switch (parsed.kind) {
    case "key":
      return keyElement(parsed.fields);
    case "value":
      return valueElement(parsed.value);
    default:
      return element;
  }
}

/** Upstream orders fields before keys before values before indexes. */
function elementRank(element: PathElement): number {
  return [FIELD, KEY, VALUE, INDEX].indexOf(element.slice(0, 2));
}

export function compareElements(a: PathElement, b: PathElement): number {
  const byRank = elementRank(a) - elementRank(b);
  if (byRank !== 0) return byRank;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function comparePaths(a: FieldPath, b: FieldPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const byElement = compareElements(a[i] ?? "", b[i] ?? "");
    if (byElement !== 0) return byElement;
  }
  return a.length - b.length;
}

function elementToString(element: PathElement): string {
  const parsed = parseElement(element);
  switch (parsed.kind) {
    case "field":
      return `.${parsed.name}`;
    case "key": {
      const pairs = Object.keys(parsed.fields)
        .sort()
        .map((name) => `${name}=${canonicalJson(parsed.fields[name] ?? null)}`);
      return `[${pairs.join(",")}]`;
    }
    case "value":
      return `[=${canonicalJson(parsed.value)}]`;
    case "index":
      return `[${parsed.index}]`;
  }
}

/** The path as upstream prints it in conflicts: `.spec.containers[name="c"].image`. */
export function pathToString(path: FieldPath): string {
  return path.map(elementToString).join("");
}
