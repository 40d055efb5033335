import type { Status, StatusCause } from "../objects/kube-object.js";

/**
 * An error answer from the API server, with its Status body parsed (client-node 1.4 leaves the
 * body as raw text in ApiException). Subclasses name the reasons controllers branch on; test
 * with `instanceof` or the `is*` helpers below.
 */
export class KubeApiError extends Error {
  override readonly name: string = "KubeApiError";
  /** HTTP status. */
  readonly code: number;
  /** The Status reason (e.g. "NotFound"), or "Unknown" when the body was not a Status. */
  readonly reason: string;
  readonly status: Status | undefined;
  readonly method: string;
  readonly path: string;

  constructor(init: {
    code: number;
    reason: string;
    status?: Status;
    method: string;
    path: string;
    message: string;
  }) {
    super(`${init.method} ${init.path}: ${init.code} ${init.reason}: ${init.message}`);
    this.code = init.code;
    this.reason = init.reason;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
  }

  /** Field-level causes (validation errors, apply conflicts). */
  get causes(): readonly StatusCause[] {
    return this.status?.details?.causes ?? [];
  }
}

export class NotFoundError extends KubeApiError {
  override readonly name = "NotFoundError";
}
/** A write based on a stale resourceVersion (or an apply conflict): read again and retry. */
export class ConflictError extends KubeApiError {
  override readonly name = "ConflictError";
}
export class AlreadyExistsError extends KubeApiError {
  override readonly name = "AlreadyExistsError";
}
/** Validation failed; `causes` carry the field paths. */
export class InvalidError extends KubeApiError {
  override readonly name = "InvalidError";
}
/** A resourceVersion or continue token older than the server's history (410): relist. */
export class ExpiredError extends KubeApiError {
  override readonly name = "ExpiredError";
}

/** The request never got an HTTP answer (connection refused or reset, timeout). */
export class KubeConnectionError extends Error {
  override readonly name = "KubeConnectionError";
  constructor(method: string, path: string, cause: unknown) {
    super(
      `${method} ${path}: no answer from the API server: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}

/** Builds the typed error for a non-2xx answer. */
export function apiErrorFromResponse(method: string, path: string, code: number, body: string): KubeApiError {
  const status = parseStatus(body);
  const reason = status?.reason ?? reasonForCode(code);
  const message = status?.message ?? (body.trim().slice(0, 500) || "no message");
  const init = { code, reason, method, path, message, ...(status ? { status } : {}) };
  if (reason === "NotFound" || (code === 404 && !status?.reason)) return new NotFoundError(init);
  if (reason === "AlreadyExists") return new AlreadyExistsError(init);
  if (code === 409) return new ConflictError(init);
  if (reason === "Invalid" || code === 422) return new InvalidError(init);
  if (reason === "Expired" || reason === "Gone" || code === 410) return new ExpiredError(init);
  return new KubeApiError(init);
}

function parseStatus(body: string): Status | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && (parsed as { kind?: unknown }).kind === "Status")
      return parsed as Status;
  } catch {
    // Not JSON (a proxy's HTML page, say): the raw text becomes the message.
  }
  return undefined;
}

function reasonForCode(code: number): string {
  const reasons: Record<number, string> = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    409: "Conflict",
    410: "Expired",
    415: "UnsupportedMediaType",
    422: "Invalid",
    429: "TooManyRequests",
    500: "InternalError",
    503: "ServiceUnavailable",
    504: "Timeout",
  };
  return reasons[code] ?? "Unknown";
}

export const isNotFound = (error: unknown): error is NotFoundError => error instanceof NotFoundError;
export const isConflict = (error: unknown): error is ConflictError => error instanceof ConflictError;
export const isAlreadyExists = (error: unknown): error is AlreadyExistsError =>
  error instanceof AlreadyExistsError;
export const isInvalid = (error: unknown): error is InvalidError => error instanceof InvalidError;
export const isExpired = (error: unknown): error is ExpiredError => error instanceof ExpiredError;
