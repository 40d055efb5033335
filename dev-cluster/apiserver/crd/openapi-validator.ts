import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { goNumber, goQuote } from "./go-format.js";
import type { OpenApiErrors } from "./openapi-messages.js";
import {
  additionalPropertiesOf,
  flag,
  itemsOf,
  junctor,
  notOf,
  numberKeyword,
  propertiesOf,
  type SchemaNode,
  schemaType,
  stringList,
  text,
} from "./schema-nodes.js";
import { isSupportedFormat, matchesFormat } from "./string-formats.js";

/**
 * What kube-openapi's SchemaValidator checks for one value, in its order: type, allOf/anyOf/
 * oneOf/not, string, format, number, array, enum, object. Messages follow its wording.
 */
export function validateAgainstSchema(
  value: JsonValue,
  schema: SchemaNode,
  name: string,
  errors: OpenApiErrors,
): void {
  checkType(value, schema, name, errors);
  if (value === null) {
    checkEnum(value, schema, name, errors);
    return;
  }
  checkJunctors(value, schema, name, errors);
  if (typeof value === "string") {
    checkString(value, schema, name, errors);
    checkFormat(value, schema, name, errors);
  }
  if (typeof value === "number") checkNumber(value, schema, name, errors);
  if (Array.isArray(value)) checkArray(value, schema, name, errors);
  checkEnum(value, schema, name, errors);
  if (isJsonObject(value)) checkObject(value, schema, name, errors);
}

/** The JSON type of a decoded value, and the Go format kube-openapi infers for it. */
function dataType(value: JsonValue): { type: string; format: string } {
  if (value === null) return { type: "null", format: "" };
  if (typeof value === "string") return { type: "string", format: "" };
  if (typeof value === "boolean") return { type: "boolean", format: "" };
  if (typeof value === "number") {
    return Number.isInteger(value)
      ? { type: "integer", format: "int64" }
      : { type: "number", format: "double" };
  }
  return Array.isArray(value) ? { type: "array", format: "" } : { type: "object", format: "" };
}

function declaredTypes(schema: SchemaNode): string[] {
  if (flag(schema, "x-kubernetes-int-or-string")) return ["integer", "string"];
  const type = schemaType(schema);
  return type === "" ? [] : [type];
}

function checkType(value: JsonValue, schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const types = declaredTypes(schema);
  const format = isSupportedFormat(text(schema, "format")) ? text(schema, "format") : "";
  if (types.length === 0 && format === "") return;
  if (value === null) {
    if (types.length > 0 && !flag(schema, "nullable")) errors.invalidType(name, types.join(","), "null");
    return;
  }
  const data = dataType(value);
  const textual = typeof value === "string" || Array.isArray(value);
  const intAsNumber = data.type === "integer" && types.includes("number");
  if (!textual && format !== "" && !(types.includes(data.type) || data.format === format || intAsNumber)) {
    errors.invalidType(name, format, data.format);
    return;
  }
  // A format on a non-numeric type accepts any string or array, as kube-openapi does.
  if (!types.includes("number") && !types.includes("integer") && format !== "" && textual) return;
  if (!(types.includes(data.type) || intAsNumber)) errors.invalidType(name, types.join(","), data.type);
}

function checkJunctors(value: JsonValue, schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const quoted = goQuote(name);
  const anyOf = junctor(schema, "anyOf");
  if (anyOf.length > 0) {
    const results = tryBranches(value, anyOf, name, errors);
    if (!results.some((result) => result.valid)) {
      errors.composite(`${quoted} must validate at least one schema (anyOf)`);
      errors.merge(fewestErrors(results));
    }
  }
  const oneOf = junctor(schema, "oneOf");
  if (oneOf.length > 0) {
    const results = tryBranches(value, oneOf, name, errors);
    const passed = results.filter((result) => result.valid).length;
    if (passed !== 1) {
      const found = passed === 0 ? "Found none valid" : `Found ${passed} valid alternatives`;
      errors.composite(`${quoted} must validate one and only one schema (oneOf). ${found}`);
      if (passed === 0) errors.merge(fewestErrors(results));
    }
  }
  const allOf = junctor(schema, "allOf");
  if (allOf.length > 0) {
    const results = tryBranches(value, allOf, name, errors);
    for (const result of results) errors.merge(result);
    const passed = results.filter((result) => result.valid).length;
    if (passed !== allOf.length) {
      errors.composite(
        `${quoted} must validate all the schemas (allOf)${passed === 0 ? ". None validated" : ""}`,
      );
    }
  }
  const not = notOf(schema);
  if (not !== undefined && tryBranches(value, [not], name, errors)[0]?.valid === true) {
    errors.composite(`${quoted} must not validate the schema (not)`);
  }
}

function tryBranches(
  value: JsonValue,
  branches: SchemaNode[],
  name: string,
  errors: OpenApiErrors,
): OpenApiErrors[] {
  return branches.map((branch) => {
    const result = errors.fork();
    validateAgainstSchema(value, branch, name, result);
    return result;
  });
}

/** kube-openapi reports the branch that matched best; the one with the fewest errors stands in for that. */
function fewestErrors(results: OpenApiErrors[]): OpenApiErrors {
  return results.reduce((best, result) => (result.causes.length < best.causes.length ? result : best));
}

const patterns = new Map<string, RegExp | null>();

function compiled(pattern: string): RegExp | null {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, "u");
    } catch {
      try {
        regex = new RegExp(pattern);
      } catch {
        regex = null;
      }
    }
    patterns.set(pattern, regex);
  }
  return regex;
}

function checkString(value: string, schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const length = [...value].length;
  const maxLength = numberKeyword(schema, "maxLength");
  if (maxLength !== undefined && length > maxLength) errors.tooLong(name, maxLength);
  const minLength = numberKeyword(schema, "minLength");
  if (minLength !== undefined && length < minLength) {
    errors.failed(name, value, `should be at least ${minLength} chars long`);
  }
  const pattern = text(schema, "pattern");
  const regex = pattern === "" ? null : compiled(pattern);
  if (regex !== null && !regex.test(value)) errors.failed(name, value, `should match '${pattern}'`);
}

function checkFormat(value: string, schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const format = text(schema, "format");
  if (!isSupportedFormat(format) || matchesFormat(format, value)) return;
  errors.invalidType(name, format, value);
}

/** swag.IsFloat64AJSONInteger: integral within a relative tolerance. */
function isWhole(quotient: number): boolean {
  if (!Number.isFinite(quotient)) return false;
  const rounded = Math.round(quotient);
  return quotient === rounded || Math.abs(quotient - rounded) / Math.abs(quotient + rounded) < 1e-9;
}

function checkNumber(value: number, schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const multipleOf = numberKeyword(schema, "multipleOf");
  if (multipleOf !== undefined && multipleOf > 0 && !isWhole(value / multipleOf)) {
    errors.failed(name, value, `should be a multiple of ${goNumber(multipleOf)}`);
  }
  const maximum = numberKeyword(schema, "maximum");
  if (maximum !== undefined) {
    const exclusive = flag(schema, "exclusiveMaximum");
    if (exclusive ? value >= maximum : value > maximum) {
      errors.failed(
        name,
        value,
        `should be less than ${exclusive ? "" : "or equal to "}${goNumber(maximum)}`,
      );
    }
  }
  const minimum = numberKeyword(schema, "minimum");
  if (minimum !== undefined) {
    const exclusive = flag(schema, "exclusiveMinimum");
    if (exclusive ? value <= minimum : value < minimum) {
      errors.failed(
        name,
        value,
        `should be greater than ${exclusive ? "" : "or equal to "}${goNumber(minimum)}`,
      );
    }
  }
}

function checkArray(value: JsonValue[], schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const items = itemsOf(schema);
  if (items !== undefined) {
    value.forEach((item, position) => {
      validateAgainstSchema(item, items, `${name}[${position}]`, errors);
    });
  }
  const minItems = numberKeyword(schema, "minItems");
  if (minItems !== undefined && value.length < minItems) {
    errors.failed(name, value.length, `should have at least ${minItems} items`);
  }
  const maxItems = numberKeyword(schema, "maxItems");
  if (maxItems !== undefined && value.length > maxItems) errors.tooMany(name, value.length, maxItems);
  if (flag(schema, "uniqueItems") && hasDuplicates(value))
    errors.failed(name, "", "shouldn't contain duplicates");
}

function hasDuplicates(values: JsonValue[]): boolean {
  return values.some((value, position) =>
    values.slice(0, position).some((earlier) => jsonEqual(earlier, value)),
  );
}

function checkEnum(value: JsonValue, schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const allowed = schema.enum;
  if (!Array.isArray(allowed) || allowed.length === 0) return;
  // A null never matches, not even a null in the enum (kube-openapi compares by Go type).
  if (value !== null && allowed.some((option) => option !== null && jsonEqual(option, value))) return;
  errors.enumFail(name, value, allowed);
}

function checkObject(value: JsonObject, schema: SchemaNode, name: string, errors: OpenApiErrors): void {
  const count = Object.keys(value).length;
  const minProperties = numberKeyword(schema, "minProperties");
  if (minProperties !== undefined && count < minProperties) {
    errors.failed(name, count, `should have at least ${minProperties} properties`);
    return;
  }
  const maxProperties = numberKeyword(schema, "maxProperties");
  if (maxProperties !== undefined && count > maxProperties) {
    errors.tooMany(name, count, maxProperties);
    return;
  }
  const declared = new Map(propertiesOf(schema));
  const additional = additionalPropertiesOf(schema);
  for (const [key, item] of Object.entries(value)) {
    if (declared.has(key) || additional === undefined) continue;
    if (!additional.allows) errors.forbiddenProperty(name, key);
    else if (additional.schema !== undefined)
      validateAgainstSchema(item, additional.schema, `${name}.${key}`, errors);
  }
  for (const [property, propertySchema] of declared) {
    if (Object.hasOwn(value, property)) {
      validateAgainstSchema(
        value[property] ?? null,
        propertySchema,
        name === "" ? property : `${name}.${property}`,
        errors,
      );
    }
  }
  for (const property of stringList(schema, "required")) {
    if (!Object.hasOwn(value, property)) errors.required(`${name}.${property}`);
  }
}
