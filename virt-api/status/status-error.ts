/**
 * Errors virt-api answers with, shaped as the Kubernetes API shapes them (apimachinery's
 * errors.New* helpers): an HTTP code and a metav1.Status body whose message is what virtctl
 * prints. KubeVirt's virt-api answers with the same helpers, so its messages carry over.
 */
import type { Status, StatusCause } from "../../runtime/index.js";

/** A resource as apimachinery's errors name it: `virtualmachine.kubevirt.io`. */
export interface QualifiedResource {
  readonly group: string;
  readonly resource: string;
}

export const VIRTUAL_MACHINE: QualifiedResource = { group: "kubevirt.io", resource: "virtualmachine" };
export const VIRTUAL_MACHINE_INSTANCE: QualifiedResource = {
  group: "kubevirt.io",
  resource: "virtualmachineinstance",
};

function qualified(resource: QualifiedResource): string {
  return resource.group === "" ? resource.resource : `${resource.resource}.${resource.group}`;
}

export type StatusBody = Status & {
  metadata?: Record<string, string>;
  code: number;
  reason: string;
  message: string;
};

/** A refusal with its Status; throw it from any handler and the server answers it as is. */
export class StatusError extends Error {
  override readonly name = "StatusError";
  readonly status: StatusBody;

  constructor(status: StatusBody, options?: ErrorOptions) {
    super(status.message, options);
    this.status = { apiVersion: "v1", metadata: {}, status: "Failure", ...status };
  }

  get code(): number {
    return this.status.code;
  }
}

export function notFound(resource: QualifiedResource, name: string): StatusError {
  return new StatusError({
    kind: "Status",
    code: 404,
    reason: "NotFound",
    message: `${qualified(resource)} "${name}" not found`,
    details: { name, group: resource.group, kind: resource.resource },
  });
}

/** apimachinery's NewConflict: "Operation cannot be fulfilled on virtualmachine.kubevirt.io "vm": ...". */
export function conflict(resource: QualifiedResource, name: string, reason: string): StatusError {
  return new StatusError({
    kind: "Status",
    code: 409,
    reason: "Conflict",
    message: `Operation cannot be fulfilled on ${qualified(resource)} "${name}": ${reason}`,
    details: { name, group: resource.group, kind: resource.resource },
  });
}

export function badRequest(message: string): StatusError {
  return new StatusError({ kind: "Status", code: 400, reason: "BadRequest", message });
}

export function forbidden(resource: QualifiedResource, name: string, reason: string): StatusError {
  return new StatusError({
    kind: "Status",
    code: 403,
    reason: "Forbidden",
    // apimachinery's NewForbidden leaves the name out when there is none (a request on a namespace).
    message: `${qualified(resource)}${name ? ` "${name}"` : ""} is forbidden: ${reason}`,
    details: { name, group: resource.group, kind: resource.resource },
  });
}

export function unauthorized(message = "Unauthorized"): StatusError {
  return new StatusError({ kind: "Status", code: 401, reason: "Unauthorized", message });
}

export function methodNotAllowed(method: string, path: string): StatusError {
  return new StatusError({
    kind: "Status",
    code: 405,
    reason: "MethodNotAllowed",
    message: `the server does not allow the method ${method} on ${path}`,
  });
}

export function pathNotFound(path: string): StatusError {
  return new StatusError({
    kind: "Status",
    code: 404,
    reason: "NotFound",
    message: `the server could not find the requested resource (${path})`,
  });
}

/** apimachinery's NewInternalError: "Internal error occurred: ...", the cause kept for the log. */
export function internalError(message: string, cause?: unknown): StatusError {
  const causes: StatusCause[] = [{ message }];
  return new StatusError(
    {
      kind: "Status",
      code: 500,
      reason: "InternalError",
      message: `Internal error occurred: ${message}`,
      details: { causes },
    },
    cause === undefined ? undefined : { cause },
  );
}

/** A Status another server answered (virt-handler): passed on to the caller unchanged. */
export function relayedStatus(status: Status, fallbackCode: number): StatusError {
  const code = typeof status.code === "number" && status.code >= 400 ? status.code : fallbackCode;
  return new StatusError({
    ...status,
    kind: "Status",
    code,
    reason: status.reason ?? "InternalError",
    message: status.message ?? `virt-handler answered ${code}`,
  });
}

/** Any error as a StatusError: an unexpected one becomes a 500 with its message. */
export function asStatusError(error: unknown): StatusError {
  if (error instanceof StatusError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return internalError(message, error);
}
