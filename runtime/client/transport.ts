import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from "node:https";
import { text } from "node:stream/consumers";
import type { KubeConfig } from "@kubernetes/client-node";
import { apiErrorFromResponse, KubeConnectionError } from "./api-errors.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface KubeRequest {
  method: HttpMethod;
  /** Absolute API path, e.g. `/api/v1/namespaces/default/configmaps`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Serialised as JSON. */
  body?: unknown;
  /** Default `application/json` when there is a body. */
  contentType?: string;
  signal?: AbortSignal;
  /** Socket idle timeout; default the transport's (30 s). Not used for streams. */
  timeoutMs?: number;
}

export interface TransportOptions {
  userAgent?: string;
  /** Idle timeout of ordinary requests (default 30 s). */
  requestTimeoutMs?: number;
}

/**
 * HTTP to the API server as the KubeConfig describes it (server, CA, client certificates,
 * tokens, exec plugins: client-node's `applyToHTTPSOptions` does that part), over one
 * keep-alive agent of our own. client-node's generated clients open a new connection per
 * request (`Connection: close`) and turn timestamps into Dates; the runtime wants plain JSON,
 * typed errors and long-lived watch streams, so it speaks HTTP itself.
 */
export class KubeTransport {
  readonly #kubeConfig: KubeConfig;
  readonly #server: URL;
  readonly #userAgent: string;
  readonly #requestTimeoutMs: number;
  #agent: HttpAgent | undefined;

  constructor(kubeConfig: KubeConfig, options: TransportOptions = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error("the kubeconfig has no current cluster");
    this.#kubeConfig = kubeConfig;
    this.#server = new URL(cluster.server);
    this.#userAgent = options.userAgent ?? "kubevirt-ts-runtime";
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  /** Sends a request and parses the JSON answer; a non-2xx answer throws a typed KubeApiError. */
  async json<T>(request: KubeRequest): Promise<T> {
    const response = await this.#send(request, request.timeoutMs ?? this.#requestTimeoutMs);
    const body = await readBody(response, request);
    const code = response.statusCode ?? 0;
    if (code < 200 || code >= 300) throw apiErrorFromResponse(request.method, request.path, code, body);
    try {
      return JSON.parse(body) as T;
    } catch (error) {
      throw new Error(`${request.method} ${request.path}: the answer is not JSON`, { cause: error });
    }
  }

  /**
   * Opens a streaming GET (a watch). Resolves with the open response once the server answers
   * 200; any other answer throws a typed error. Abort `signal` to close the stream.
   */
  async stream(request: Omit<KubeRequest, "method" | "body">): Promise<IncomingMessage> {
    const full: KubeRequest = { ...request, method: "GET" };
    const response = await this.#send(full, undefined);
    const code = response.statusCode ?? 0;
    if (code === 200) return response;
    throw apiErrorFromResponse("GET", request.path, code, await readBody(response, full));
  }

  /** Closes idle keep-alive connections; open streams end when their signals abort. */
  close(): void {
    this.#agent?.destroy();
    this.#agent = undefined;
  }

  async #send(request: KubeRequest, timeoutMs: number | undefined): Promise<IncomingMessage> {
    const options = await this.#requestOptions(request);
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (payload !== undefined) {
      options.headers = {
        ...options.headers,
        "Content-Type": request.contentType ?? "application/json",
        "Content-Length": Buffer.byteLength(payload),
      };
    }
    const send = this.#server.protocol === "http:" ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const outgoing = send(options, resolve);
      outgoing.on("error", (error) => reject(new KubeConnectionError(request.method, request.path, error)));
      if (timeoutMs !== undefined) {
        outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      }
      outgoing.end(payload);
    });
  }

  async #requestOptions(request: KubeRequest): Promise<RequestOptions> {
    // Credentials may rotate (token files, exec plugins): ask the KubeConfig on every request.
    const auth: RequestOptions = { headers: {} };
    await this.#kubeConfig.applyToHTTPSOptions(auth);
    this.#agent ??= this.#createAgent(auth);
    const basePath = this.#server.pathname.replace(/\/$/, "");
    return {
      protocol: this.#server.protocol,
      hostname: this.#server.hostname,
      port: this.#server.port,
      method: request.method,
      path: `${basePath}${request.path}${queryString(request.query)}`,
      agent: this.#agent,
      headers: { ...auth.headers, Accept: "application/json", "User-Agent": this.#userAgent },
      ...(auth.auth ? { auth: auth.auth } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    };
  }

  #createAgent(tls: RequestOptions): HttpAgent {
    if (this.#server.protocol === "http:") return new HttpAgent({ keepAlive: true });
    return new HttpsAgent({
      keepAlive: true,
      ...(tls.ca ? { ca: tls.ca } : {}),
      ...(tls.cert ? { cert: tls.cert } : {}),
      ...(tls.key ? { key: tls.key } : {}),
      ...(tls.pfx ? { pfx: tls.pfx } : {}),
      ...(tls.passphrase ? { passphrase: tls.passphrase } : {}),
      ...(tls.servername ? { servername: tls.servername } : {}),
      ...(tls.rejectUnauthorized !== undefined ? { rejectUnauthorized: tls.rejectUnauthorized } : {}),
    });
  }
}

function queryString(query: KubeRequest["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

async function readBody(response: IncomingMessage, request: KubeRequest): Promise<string> {
  try {
    return await text(response);
  } catch (error) {
    throw new KubeConnectionError(request.method, request.path, error);
  }
}
