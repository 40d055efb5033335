// Errors the console server answers with, as the Kubernetes API does: an HTTP status and a
// metav1.Status body, so that virt-api can pass them on to virtctl unchanged.
import type { Status } from "../../runtime/index.js";

export type StatusReason =
  | "BadRequest"
  | "Forbidden"
  | "NotFound"
  | "MethodNotAllowed"
  | "Conflict"
  | "InternalError";

/** A refusal with its HTTP status; `message` is what the user reads. */
export class HttpError extends Error {
  override readonly name = "HttpError";

  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Any error as an HttpError (unexpected ones become 500 InternalError with their message). */
export function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HttpError(500, "InternalError", message, { cause: error });
}

/** The metav1.Status body of a refusal. */
export function statusOf(error: HttpError): Status & { code: number } {
  return {
    kind: "Status",
    apiVersion: "v1",
    status: "Failure",
    message: error.message,
    reason: error.reason,
    code: error.code,
  };
}
