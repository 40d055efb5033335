/**
 * One reason an object is invalid, shaped like a metav1.StatusCause so virt-api's webhooks and
 * the API server can return it unchanged: `field` is a Kubernetes field path such as
 * `spec.template.spec.domain.devices.disks[0].name`.
 */
export interface Cause {
  readonly reason: CauseReason;
  readonly message: string;
  readonly field: string;
}

/** apimachinery's field.ErrorType names, as they appear in StatusCause.reason. */
export type CauseReason =
  | "FieldValueInvalid"
  | "FieldValueRequired"
  | "FieldValueNotSupported"
  | "FieldValueDuplicate"
  | "FieldValueTypeInvalid"
  | "FieldValueNotFound"
  | "FieldValueTooMany"
  | "FieldValueTooLong"
  | "FieldValueForbidden";

export function invalid(field: string, message: string): Cause {
  return { reason: "FieldValueInvalid", message, field };
}

export function required(field: string, message = `${field} is a required field`): Cause {
  return { reason: "FieldValueRequired", message, field };
}

export function notSupported(field: string, value: unknown, supported: readonly string[]): Cause {
  const list = supported.map((item) => JSON.stringify(item)).join(", ");
  return {
    reason: "FieldValueNotSupported",
    message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${list}`,
    field,
  };
}

export function duplicate(field: string, message: string): Cause {
  return { reason: "FieldValueDuplicate", message, field };
}

export function notFound(field: string, message: string): Cause {
  return { reason: "FieldValueNotFound", message, field };
}

export function forbidden(field: string, message: string): Cause {
  return { reason: "FieldValueForbidden", message, field };
}

export function tooMany(field: string, message: string): Cause {
  return { reason: "FieldValueTooMany", message, field };
}
