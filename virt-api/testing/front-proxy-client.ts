/**
 * Calls virt-api the way the API server's aggregation layer does: over TLS with the front-proxy
 * client certificate, the caller in X-Remote-User / X-Remote-Group. Each part can be swapped
 * for an impostor's, which is what the authentication tests do.
 */
import { request as httpsRequest } from "node:https";
import { WebSocket } from "ws";
import { PLAIN_STREAM_PROTOCOL } from "../handler/handler-client.js";
import type { CertificateAndKey, TestCertificates } from "./test-certificates.js";

/** A user RBAC allows everything (group system:masters). */
export const ADMIN = { user: "admin", groups: ["system:masters"] } as const;

export interface Identity {
  readonly user?: string;
  readonly groups?: readonly string[];
  /** The client certificate to present; default the front-proxy's, null for none. */
  readonly certificate?: CertificateAndKey | null;
  /** Another virt-api's port (a process the test started); default the in-process one. */
  readonly port?: number;
  /** The CA to check virt-api's serving certificate with; default the KubeVirt CA. */
  readonly serverCaPem?: string;
}

export interface CallResult {
  readonly code: number;
  readonly body: string;
  /** The body parsed as JSON, when it is. */
  readonly json: unknown;
}

/** What a refused WebSocket upgrade rejects with. */
export interface UpgradeRefusal extends Error {
  readonly code: number;
  readonly json: unknown;
}

export class FrontProxyClient {
  readonly #certificates: TestCertificates;
  readonly #port: number;

  constructor(certificates: TestCertificates, port: number) {
    this.#certificates = certificates;
    this.#port = port;
  }

  call(method: string, path: string, identity: Identity & { body?: string } = {}): Promise<CallResult> {
    const body = identity.body;
    const contentHeaders =
      body === undefined
        ? {}
        : { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
    return new Promise((resolve, reject) => {
      const request = httpsRequest(
        {
          ...this.#tls(identity),
          host: "127.0.0.1",
          port: identity.port ?? this.#port,
          method,
          path,
          agent: false,
          headers: { ...userHeaders(identity), ...contentHeaders },
        },
        (response) => {
          readText(response, (text) =>
            resolve({ code: response.statusCode ?? 0, body: text, json: parseJson(text) }),
          );
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  }

  /** Opens a WebSocket; resolves once open, rejects with an UpgradeRefusal when refused. */
  stream(path: string, identity: Identity = {}): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(
        `wss://127.0.0.1:${identity.port ?? this.#port}${path}`,
        [PLAIN_STREAM_PROTOCOL],
        {
          ...this.#tls(identity),
          headers: userHeaders(identity),
          perMessageDeflate: false,
        },
      );
      socket.once("open", () => resolve(socket));
      socket.once("unexpected-response", (_request, response) => {
        readText(response, (text) => {
          const refusal = new Error(`upgrade refused: ${response.statusCode} ${text}`);
          reject(Object.assign(refusal, { code: response.statusCode ?? 0, json: parseJson(text) }));
        });
      });
      socket.once("error", reject);
    });
  }

  #tls(identity: Identity): { ca: string; cert?: string; key?: string } {
    const certificate =
      identity.certificate === undefined ? this.#certificates.frontProxyClient : identity.certificate;
    return {
      ca: identity.serverCaPem ?? this.#certificates.kubevirtCa.certPem,
      ...(certificate ? { cert: certificate.certPem, key: certificate.keyPem } : {}),
    };
  }
}

function userHeaders(identity: Identity): Record<string, string | string[]> {
  const user = identity.user ?? ADMIN.user;
  const groups = identity.groups ?? (identity.user === undefined ? ADMIN.groups : []);
  return { "X-Remote-User": user, ...(groups.length > 0 ? { "X-Remote-Group": [...groups] } : {}) };
}

function readText(stream: NodeJS.ReadableStream, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  stream.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
