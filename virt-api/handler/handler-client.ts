/**
 * virt-api's connections to virt-handler's console server (port 8186): HTTPS requests (pause,
 * unpause, guestosinfo) and WebSockets (console, vnc), authenticated with virt-api's client
 * certificate (CN virt-api) from Secret kubevirt-virt-handler-certs, the handler's certificate
 * checked against that Secret's ca.crt.
 */
import { request as httpsRequest } from "node:https";
import { isIPv6 } from "node:net";
import type { ConnectionOptions } from "node:tls";
import { WebSocket } from "ws";
import type { Status } from "../../runtime/index.js";
import type { TlsMaterialSource } from "../../runtime/tls/tls-material.js";
import { internalError, relayedStatus, type StatusError } from "../status/status-error.js";

/** KubeVirt's console server port on every node. */
export const DEFAULT_CONSOLE_SERVER_PORT = 8186;
/** The WebSocket subprotocol of KubeVirt's console and VNC streams. */
export const PLAIN_STREAM_PROTOCOL = "plain.kubevirt.io";

export interface HandlerResponse {
  readonly code: number;
  readonly body: string;
}

export interface HandlerClientOptions {
  readonly tls: TlsMaterialSource;
  /** Default 8186. */
  readonly port?: number;
  /** How long a request, or a WebSocket handshake, may take (default 10 s, as KubeVirt's client). */
  readonly timeoutMs?: number;
}

export class HandlerClient {
  readonly #tls: TlsMaterialSource;
  readonly #port: number;
  readonly #timeoutMs: number;

  constructor(options: HandlerClientOptions) {
    this.#tls = options.tls;
    this.#port = options.port ?? DEFAULT_CONSOLE_SERVER_PORT;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Sends a request; a non-2xx answer throws a StatusError carrying the handler's Status. */
  async send(address: string, method: "GET" | "PUT", path: string, body?: string): Promise<HandlerResponse> {
    const tls = this.#connectionOptions();
    const response = await new Promise<HandlerResponse>((resolve, reject) => {
      const request = httpsRequest(
        {
          ...tls,
          host: address,
          port: this.#port,
          method,
          path,
          timeout: this.#timeoutMs,
          agent: false,
          headers:
            body === undefined
              ? {}
              : { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () =>
            resolve({ code: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
          );
          answer.on("error", reject);
        },
      );
      request.on("timeout", () => request.destroy(new Error(`no answer within ${this.#timeoutMs} ms`)));
      request.on("error", (error) => reject(unreachable(address, this.#port, error)));
      request.end(body);
    });
    if (response.code >= 200 && response.code < 300) return response;
    throw handlerRefusal(response.code, response.body);
  }

  /**
   * Opens a WebSocket to the handler. Resolves once it is open; rejects with a StatusError: the
   * handler's own Status when it refused the upgrade, a 500 when it could not be reached.
   */
  async openStream(address: string, path: string): Promise<WebSocket> {
    const tls = this.#connectionOptions();
    return await new Promise((resolve, reject) => {
      const socket = new WebSocket(
        `wss://${hostPart(address)}:${this.#port}${path}`,
        [PLAIN_STREAM_PROTOCOL],
        {
          ...tls,
          handshakeTimeout: this.#timeoutMs,
          perMessageDeflate: false,
        },
      );
      socket.once("open", () => {
        socket.removeAllListeners("error");
        resolve(socket);
      });
      socket.once("unexpected-response", (_request, response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          reject(handlerRefusal(response.statusCode ?? 0, Buffer.concat(chunks).toString("utf8")));
          socket.terminate();
        });
      });
      socket.once("error", (error) => reject(unreachable(address, this.#port, error)));
    });
  }

  /**
   * The client side of the handler connection. The handler's certificate names its node and
   * service, not the pod IP we dial, so its chain is verified against the handler CA (ca.crt)
   * but the host name check is skipped, deliberately: a certificate issued by that CA is what
   * proves we reached virt-handler.
   */
  #connectionOptions(): ConnectionOptions {
    const material = this.#tls.current();
    if (!material)
      throw internalError(
        "virt-api has no client certificate for virt-handler yet (Secret kubevirt-virt-handler-certs)",
      );
    return {
      cert: material.certPem,
      key: material.keyPem,
      ca: material.caPem,
      rejectUnauthorized: true,
      checkServerIdentity: () => undefined,
      minVersion: "TLSv1.2",
    };
  }
}

function hostPart(address: string): string {
  return isIPv6(address) ? `[${address}]` : address;
}

function unreachable(address: string, port: number, error: Error): StatusError {
  return internalError(`cannot reach virt-handler at ${hostPart(address)}:${port}: ${error.message}`, error);
}

/** The handler's answer as a StatusError: its Status passed on unchanged when it sent one. */
function handlerRefusal(code: number, body: string): StatusError {
  try {
    const parsed = JSON.parse(body) as Status;
    if (parsed && parsed.kind === "Status") return relayedStatus(parsed, code >= 400 ? code : 500);
  } catch {
    // Not a Status: reported below with the raw text.
  }
  return internalError(`virt-handler answered ${code}: ${body.trim().slice(0, 300) || "no message"}`);
}
