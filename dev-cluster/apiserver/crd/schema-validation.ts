import type { StatusCause } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import { validateEmbeddedResources } from "./embedded-resources.js";
import { child } from "./field-errors.js";
import { validateListTypes } from "./list-type-validation.js";
import { OpenApiErrors } from "./openapi-messages.js";
import { validateAgainstSchema } from "./openapi-validator.js";

export interface ValidateValueOptions {
  /**
   * Where the validated value sits when messages name it relative to itself: kube validates a
   * status update against the status schema alone, so its messages say `replicas in body ...`
   * while the field is `status.replicas` (path `""`, fieldPrefix `status`).
   */
  fieldPrefix?: string;
}

/**
 * Validates a value against a CRD's structural schema the way kube-apiserver validates a custom
 * resource: the OpenAPI schema checks (types, required, enum, bounds, formats, junctors...),
 * then embedded resources (`x-kubernetes-embedded-resource`) and list invariants
 * (`x-kubernetes-list-type` set and map). `path` is where `value` sits (`""` for a whole
 * object). CEL rules (`x-kubernetes-validations`) are not evaluated.
 */
export function validateValue(
  value: JsonValue,
  schema: JsonObject,
  path: string,
  options: ValidateValueOptions = {},
): StatusCause[] {
  const prefix = options.fieldPrefix ?? "";
  const errors = new OpenApiErrors(prefix);
  validateAgainstSchema(value, schema, path, errors);
  const location = child(prefix, path);
  return [
    ...errors.causes,
    ...validateEmbeddedResources(value, schema, location),
    ...validateListTypes(value, schema, location),
  ];
}
