import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../api-error.js";

/** kube-aggregator's answer when an APIService's backend cannot be used (503 `service unavailable`). */
export function serviceUnavailable(message = "service unavailable"): ApiError {
  return new ApiError(503, "ServiceUnavailable", message);
}

/** Sends an error as a metav1.Status on a plain (not upgraded) response. */
export function sendStatus(response: ServerResponse, error: ApiError): void {
  const body = JSON.stringify(error.toStatus());
  response.writeHead(error.code, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}

/** The status line and headers of an HTTP/1.1 response written straight to a socket. */
export function rawResponseHead(
  code: number,
  message: string | undefined,
  headers: readonly string[],
): string {
  let head = `HTTP/1.1 ${code} ${message || STATUS_CODES[code] || ""}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}\r\n`;
}

/** Answers an upgrade request that cannot be proxied with a Status, then closes the connection. */
export function writeRawStatus(socket: Duplex, error: ApiError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(error.toStatus());
  const headers = [
    "Content-Type",
    "application/json",
    "Content-Length",
    String(Buffer.byteLength(body)),
    "Connection",
    "close",
  ];
  socket.end(rawResponseHead(error.code, undefined, headers) + body);
}
