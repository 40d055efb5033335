// Test support: virt-handler's console server seen from virt-api's side: WebSockets and PUTs over
// mutual TLS with a chosen client certificate (or none).
import { request } from "node:https";
import { WebSocket } from "ws";
import type { CertificateAndKey } from "./console-certificates.js";

export interface ConsoleEndpoint {
  readonly host: string;
  readonly port: number;
  /** The CA the client verifies the server with. */
  readonly caPem: string;
}

/** The client's certificate, or undefined to present none. */
export type ClientCertificate = CertificateAndKey | undefined;

function tlsOptions(endpoint: ConsoleEndpoint, client: ClientCertificate) {
  return {
    ca: endpoint.caPem,
    ...(client ? { cert: client.certPem, key: client.keyPem } : {}),
  };
}

export function subresourcePath(namespace: string, name: string, subresource: string): string {
  return `/v1/namespaces/${namespace}/virtualmachineinstances/${name}/${subresource}`;
}

export type WebSocketOutcome =
  | { readonly kind: "open"; readonly ws: WebSocket }
  | { readonly kind: "refused"; readonly status: number; readonly body: string }
  | { readonly kind: "failed"; readonly error: Error };

export interface OpenOptions {
  /** false: do not answer the server's pings (a peer that vanished). */
  readonly autoPong?: boolean;
  /**
   * Gets every message from the start: a message in the same TCP read as the upgrade response is
   * emitted before a listener added after "open" could hear it (VNC's greeting is).
   */
  readonly onMessage?: (data: Buffer) => void;
}

/** Opens a WebSocket; resolves once it is open, refused with an HTTP status, or failed. */
export function openWebSocket(
  endpoint: ConsoleEndpoint,
  path: string,
  client: ClientCertificate,
  options: OpenOptions = {},
): Promise<WebSocketOutcome> {
  const ws = new WebSocket(`wss://${endpoint.host}:${endpoint.port}${path}`, {
    ...tlsOptions(endpoint, client),
    autoPong: options.autoPong ?? true,
  });
  const { onMessage } = options;
  if (onMessage) ws.on("message", (data: Buffer) => onMessage(data));
  return new Promise((resolve) => {
    ws.once("open", () => resolve({ kind: "open", ws }));
    ws.once("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      response.on("end", () => resolve({ kind: "refused", status: response.statusCode ?? 0, body }));
      response.on("error", (error) => resolve({ kind: "failed", error }));
    });
    ws.once("error", (error) => resolve({ kind: "failed", error }));
  });
}

/** Resolves with the close code and reason once `ws` closed. */
export function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve({ code: 1006, reason: "" });
  return new Promise((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: reason.toString("utf8") })),
  );
}

export interface HttpOutcome {
  readonly status: number;
  readonly body: string;
}

/** A request without a body (PUT for pause/unpause). */
export function send(
  endpoint: ConsoleEndpoint,
  method: string,
  path: string,
  client: ClientCertificate,
): Promise<HttpOutcome> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      // A fresh connection each time: a pooled one would carry an earlier certificate past a rotation.
      {
        host: endpoint.host,
        port: endpoint.port,
        path,
        method,
        agent: false,
        ...tlsOptions(endpoint, client),
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}
