/**
 * Refuses an HTTP upgrade (a WebSocket that will not be opened) the way the Kubernetes API answers
 * errors: the HTTP status and a metav1.Status body, so that clients (virtctl, or a proxy passing
 * it on) can print its message. The connection is closed after the answer.
 */
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { Status } from "../objects/kube-object.js";

export function refuseUpgrade(socket: Duplex, status: Status & { readonly code: number }): void {
  // A caller that went away meanwhile gets nothing (writing to it would only raise an error).
  if (socket.destroyed) return;
  const body = JSON.stringify(status);
  socket.end(
    [
      `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? "Error"}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}
