import type { JsonObject } from "./json.js";

/** The reasons of metav1.Status that this server answers with. */
export type StatusReason =
  | "BadRequest"
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Gone"
  | "Expired"
  | "Invalid"
  | "MethodNotAllowed"
  | "NotAcceptable"
  | "RequestEntityTooLarge"
  | "UnsupportedMediaType"
  | "ServerTimeout"
  | "Timeout"
  | "InternalError"
  | "ServiceUnavailable";

/** One entry of `details.causes`: what kubectl prints as `* <field>: <message>`. */
export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/**
 * An error that becomes a metav1.Status response. Every non-2xx answer of the API server is one of
 * these; anything else thrown inside a handler becomes a 500 InternalError.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;

  constructor(
    code: number,
    reason: StatusReason,
    message: string,
    details?: StatusDetails,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ApiError";
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  toStatus(): JsonObject {
    const status: JsonObject = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) status.details = JSON.parse(JSON.stringify(this.details)) as JsonObject;
    return status;
  }
}

/** Identifies an object in error messages the way kube-apiserver does: `<resource>.<group> "<name>"`. */
export interface ErrorSubject {
  group: string;
  /** The plural resource name, e.g. `virtualmachines`. */
  resource: string;
  name?: string;
}

function qualifiedResource({ group, resource }: ErrorSubject): string {
  return group ? `${resource}.${group}` : resource;
}

export function badRequest(message: string, options?: ErrorOptions): ApiError {
  return new ApiError(400, "BadRequest", message, undefined, options);
}

export function notFound(subject: ErrorSubject): ApiError {
  return new ApiError(404, "NotFound", `${qualifiedResource(subject)} "${subject.name ?? ""}" not found`, {
    name: subject.name ?? "",
    group: subject.group,
    kind: subject.resource,
  });
}

export function alreadyExists(subject: ErrorSubject): ApiError {
  return new ApiError(
    409,
    "AlreadyExists",
    `${qualifiedResource(subject)} "${subject.name ?? ""}" already exists`,
    {
      name: subject.name ?? "",
      group: subject.group,
      kind: subject.resource,
    },
  );
}

export function conflict(subject: ErrorSubject, why?: string): ApiError {
  const message =
    why ?? "the object has been modified; please apply your changes to the latest version and try again";
  return new ApiError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualifiedResource(subject)} "${subject.name ?? ""}": ${message}`,
    { name: subject.name ?? "", group: subject.group, kind: subject.resource },
  );
}

/** A 422 whose causes carry field paths; `kind` is the Kind (kubectl prints `The <Kind> "<name>" is invalid`). */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): ApiError {
  const summary = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const list = summary.length === 1 ? (summary[0] ?? "") : `[${summary.join(", ")}]`;
  return new ApiError(422, "Invalid", `${kind}${group ? `.${group}` : ""} "${name}" is invalid: ${list}`, {
    name,
    group,
    kind,
    causes,
  });
}

export function expired(message: string): ApiError {
  return new ApiError(410, "Expired", message);
}

export function methodNotAllowed(message: string): ApiError {
  return new ApiError(405, "MethodNotAllowed", message);
}

export function unsupportedMediaType(message: string): ApiError {
  return new ApiError(415, "UnsupportedMediaType", message);
}

export function internalError(message: string, cause?: unknown): ApiError {
  return new ApiError(500, "InternalError", message, undefined, { cause });
}
