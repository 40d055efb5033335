import type { FastifyReply } from "fastify";
import { ApiError } from "../api-error.js";
import type { JsonObject } from "../json.js";

/** Sends warnings the way kube-apiserver does: `Warning: 299 - "<text>"` headers. */
export function addWarnings(reply: FastifyReply, warnings: string[]): void {
  if (warnings.length === 0) return;
  reply.header(
    "Warning",
    warnings.map((w) => `299 - ${asciiQuoted(w)}`),
  );
}

export function sendJson(reply: FastifyReply, code: number, body: JsonObject | string): FastifyReply {
  return reply
    .code(code)
    .type("application/json")
    .send(typeof body === "string" ? body : JSON.stringify(body));
}

/** Every non-2xx answer is a metav1.Status. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return sendJson(reply, error.code, error.toStatus());
}

export function successStatus(details: JsonObject): JsonObject {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", details };
}

export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(500, "InternalError", `Internal error occurred: ${message}`, undefined, {
    cause: error,
  });
}

/** A quoted header value: HTTP headers carry ASCII only, so anything else is escaped as in JSON. */
function asciiQuoted(text: string): string {
  return JSON.stringify(text).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
