import { ApiError, badRequest, invalid } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { groupVersion } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";

export type FieldValidation = "Strict" | "Warn" | "Ignore";

export function parseFieldValidation(value: string | null): FieldValidation {
  if (value === null || value === "" || value === "Warn") return "Warn";
  if (value === "Strict" || value === "Ignore") return value;
  throw badRequest(`fieldValidation must be one of Ignore, Warn or Strict, not ${JSON.stringify(value)}`);
}

/**
 * Checks that a request body is an object of the URL's kind and version, fills in what
 * clients may leave out (kind and apiVersion of built-ins, metadata), and prunes unknown fields as
 * `fieldValidation` says. Returns the warnings to send back.
 */
export function decodeObject(
  type: ResourceType,
  body: unknown,
  validation: FieldValidation,
): {
  object: JsonObject;
  warnings: string[];
} {
  if (!isJsonObject(body))
    throw badRequest(`the body of the request must be a JSON object of kind ${type.kind}`);
  const object = structuredClone(body);
  const expectedApiVersion = groupVersion(type);
  if (object.kind === undefined || object.kind === "") {
    if (!type.builtin)
      throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(body).slice(0, 200)}'`);
    object.kind = type.kind;
  }
  if (object.apiVersion === undefined || object.apiVersion === "") {
    if (!type.builtin)
      throw badRequest(`Object 'apiVersion' is missing in '${JSON.stringify(body).slice(0, 200)}'`);
    object.apiVersion = expectedApiVersion;
  }
  if (object.kind !== type.kind) {
    throw badRequest(
      `the kind in the data (${String(object.kind)}) does not match the expected kind (${type.kind})`,
    );
  }
  if (object.apiVersion !== expectedApiVersion) {
    throw badRequest(
      `the API version in the data (${String(object.apiVersion)}) does not match the expected API version (${expectedApiVersion})`,
    );
  }
  if (object.metadata === undefined || object.metadata === null) object.metadata = {};
  if (!isJsonObject(object.metadata)) {
    throw invalid(type.kind, type.group, "", [
      { reason: "FieldValueTypeInvalid", message: "Invalid value: must be an object", field: "metadata" },
    ]);
  }
  const unknown = type.prune(object);
  return { object, warnings: unknownFieldOutcome(type, unknown, validation) };
}

function unknownFieldOutcome(type: ResourceType, unknown: string[], validation: FieldValidation): string[] {
  if (unknown.length === 0 || validation === "Ignore") return [];
  const described = unknown.map((path) => `unknown field "${path}"`);
  if (validation === "Warn") return described;
  throw new ApiError(
    400,
    "BadRequest",
    `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: strict decoding error: ${described.join(", ")}`,
  );
}
