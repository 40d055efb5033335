import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { child, duplicate, index, invalid, required, tooMany } from "./field-errors.js";
import { fieldSchema, type SchemaNode, schemaType } from "./schema-nodes.js";

/** validateSimpleJSONPath: printer columns and scale paths are dotted paths starting with `.`. */
function simpleJsonPathErrors(path: string, field: string): StatusCause[] {
  if (path === "") return [invalid(field, path, "must not be empty")];
  if (!path.startsWith(".")) return [invalid(field, path, "must be a simple json path starting with .")];
  return [];
}

function text(object: JsonObject, name: string): string {
  const value = object[name];
  return typeof value === "string" ? value : "";
}

function scalePathErrors(value: string, field: string, under: string[], where: string): StatusCause[] {
  if (value === "") return [required(field)];
  const syntax = simpleJsonPathErrors(value, field);
  if (syntax.length > 0) return syntax;
  if (under.some((prefix) => value.startsWith(prefix))) return [];
  return [invalid(field, value, `should be a json path under ${where}`)];
}

/** ValidateCustomResourceDefinitionSubresources: the scale subresource's paths. */
export function subresourceErrors(subresources: JsonObject | undefined, path: string): StatusCause[] {
  const scale = subresources?.scale;
  if (!isJsonObject(scale)) return [];
  const causes = [
    ...scalePathErrors(
      text(scale, "specReplicasPath"),
      child(path, "scale.specReplicasPath"),
      [".spec."],
      ".spec",
    ),
    ...scalePathErrors(
      text(scale, "statusReplicasPath"),
      child(path, "scale.statusReplicasPath"),
      [".status."],
      ".status",
    ),
  ];
  const selector = text(scale, "labelSelectorPath");
  if (selector !== "") {
    const field = child(path, "scale.labelSelectorPath");
    causes.push(...scalePathErrors(selector, field, [".spec.", ".status."], "either .spec or .status"));
  }
  return causes;
}

const COLUMN_TYPES = ["boolean", "date", "integer", "number", "string"];
const COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

/** ValidateCustomResourceColumnDefinition. */
export function printerColumnErrors(column: JsonValue, path: string): StatusCause[] {
  const definition = isJsonObject(column) ? column : {};
  const causes: StatusCause[] = [];
  if (text(definition, "name") === "") causes.push(required(child(path, "name")));
  const type = text(definition, "type");
  const typeDetail = `must be one of ${COLUMN_TYPES.join(",")}`;
  if (type === "") causes.push(required(child(path, "type"), typeDetail));
  else if (!COLUMN_TYPES.includes(type)) causes.push(invalid(child(path, "type"), type, typeDetail));
  const format = text(definition, "format");
  if (format !== "" && !COLUMN_FORMATS.includes(format)) {
    causes.push(invalid(child(path, "format"), format, `must be one of ${COLUMN_FORMATS.join(",")}`));
  }
  const jsonPath = text(definition, "jsonPath");
  if (jsonPath === "") causes.push(required(child(path, "JSONPath")));
  else causes.push(...simpleJsonPathErrors(jsonPath, child(path, "JSONPath")));
  return causes;
}

const MAX_SELECTABLE_FIELDS = 8;

/**
 * Splits a selectable field's path (`.spec.color`, `.spec['a-b']`) into property names, or
 * returns undefined when it is not such a path (array notation is not allowed).
 */
export function selectableFieldSegments(jsonPath: string): string[] | undefined {
  const segments: string[] = [];
  const pattern = /\.([A-Za-z_$][A-Za-z0-9_$-]*)|\['([^']*)'\]|\["([^"]*)"\]/y;
  let position = 0;
  while (position < jsonPath.length) {
    pattern.lastIndex = position;
    const match = pattern.exec(jsonPath);
    if (match === null) return undefined;
    segments.push(match[1] ?? match[2] ?? match[3] ?? "");
    position = pattern.lastIndex;
  }
  return segments.length === 0 ? undefined : segments;
}

function schemaAt(schema: SchemaNode | undefined, segments: string[]): SchemaNode | undefined {
  return segments.reduce<SchemaNode | undefined>((node, name) => fieldSchema(node, name), schema);
}

/** ValidateCustomResourceSelectableFields. */
export function selectableFieldErrors(
  fields: JsonValue[],
  schema: SchemaNode | undefined,
  path: string,
): StatusCause[] {
  const causes: StatusCause[] = [];
  const unique = new Set<string>();
  fields.forEach((field, position) => {
    const jsonPathField = child(index(path, position), "jsonPath");
    const jsonPath = isJsonObject(field) && typeof field.jsonPath === "string" ? field.jsonPath : "";
    if (jsonPath === "") {
      causes.push(required(jsonPathField));
      return;
    }
    const segments = selectableFieldSegments(jsonPath);
    const target = segments === undefined ? undefined : schemaAt(schema, segments);
    if (segments === undefined || target === undefined) {
      causes.push(invalid(jsonPathField, jsonPath, "is an invalid path: does not refer to a valid field"));
      return;
    }
    if (segments[0] === "metadata")
      causes.push(invalid(jsonPathField, jsonPath, "must not point to fields in metadata"));
    if (!["string", "boolean", "integer"].includes(schemaType(target))) {
      const detail =
        "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.";
      causes.push(invalid(jsonPathField, jsonPath, detail));
    }
    const normalized = segments.join(".");
    if (unique.has(normalized)) causes.push(duplicate(jsonPathField, jsonPath));
    unique.add(normalized);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) causes.push(tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return causes;
}

/** validateDeprecationWarning. */
export function deprecationWarningErrors(version: JsonObject, path: string): StatusCause[] {
  const warning = version.deprecationWarning;
  if (warning === undefined || warning === null) return [];
  const field = child(path, "deprecationWarning");
  if (version.deprecated !== true)
    return [invalid(field, warning, "can only be set for deprecated versions")];
  if (typeof warning !== "string") return [];
  const causes: StatusCause[] = [];
  if (Buffer.byteLength(warning) > 256)
    causes.push(invalid(field, warning, "must be <= 256 characters long"));
  if (warning === "") causes.push(invalid(field, warning, "must not be an empty string"));
  const control = [...warning].findIndex((char) => /\p{Cc}/u.test(char));
  if (control >= 0) {
    const at = Buffer.byteLength([...warning].slice(0, control).join(""));
    causes.push(
      invalid(
        field,
        warning,
        `must only contain printable UTF-8 characters; control character found at index ${at}`,
      ),
    );
  }
  return causes;
}
