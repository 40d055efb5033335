/**
 * virtctl's connection to the API server: plain HTTPS requests and WebSockets (console, vnc),
 * authenticated with what the kubeconfig says (CA, bearer token, client certificate, exec and
 * auth-provider plugins) through client-node's `applyToHTTPSOptions`. A server that cannot be
 * reached is a CliError naming it; an answer other than 2xx is an ApiError with its Status.
 */
import { type ClientRequest, request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { WebSocket } from "ws";
import { CliError, oneLine } from "../errors/cli-error.js";
import type { LoadedKubeConfig } from "../kubeconfig/load-kubeconfig.js";
import { ApiError } from "./api-error.js";

export interface ApiResponse {
  readonly code: number;
  readonly body: string;
}

/** How long a request or a WebSocket handshake may take before virtctl gives up. */
const REQUEST_TIMEOUT_MS = 30_000;

export class ApiClient {
  readonly server: URL;
  /** The namespace commands act in (`-n`, the context's, or `default`). */
  readonly namespace: string;
  /** Where the settings came from, for messages. */
  readonly origin: string;
  readonly #config: KubeConfig;

  constructor(loaded: LoadedKubeConfig) {
    const cluster = loaded.config.getCurrentCluster();
    if (!cluster) throw new CliError(`${loaded.origin} names no cluster`);
    try {
      this.server = new URL(cluster.server);
    } catch (error) {
      throw new CliError(`${loaded.origin}: the server "${cluster.server}" is not a URL`, { cause: error });
    }
    this.#config = loaded.config;
    this.namespace = loaded.namespace;
    this.origin = loaded.origin;
  }

  /** GET and parse JSON; a non-2xx answer throws an ApiError. */
  async get<T>(path: string): Promise<T> {
    const response = await this.send("GET", path);
    try {
      return JSON.parse(response.body) as T;
    } catch (error) {
      throw new CliError(`the API server answered GET ${path} with something that is not JSON`, {
        cause: error,
      });
    }
  }

  /** Sends a request; a non-2xx answer throws an ApiError. */
  async send(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const response = await this.request(method, path, body);
    if (response.code < 200 || response.code > 299) {
      throw new ApiError(response.code, response.body, `${method} ${path}`);
    }
    return response;
  }

  /** Sends a request and returns whatever the server answered. */
  async request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const url = this.#urlOf(path);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const options = await this.#options({
      method,
      headers: {
        Accept: "application/json",
        ...(payload === undefined
          ? {}
          : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }),
      },
    });
    return new Promise((resolve, reject) => {
      const send = url.protocol === "http:" ? httpRequest : httpsRequest;
      const outgoing: ClientRequest = send(url, options, (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ code: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", (error) => reject(this.#unreachable(error)));
      });
      outgoing.setTimeout(REQUEST_TIMEOUT_MS, () =>
        outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)),
      );
      outgoing.on("error", (error) => reject(this.#unreachable(error)));
      outgoing.end(payload);
    });
  }

  /**
   * Opens a WebSocket; resolves once it is open, paused: a frame in the same TCP read as the
   * upgrade answer would be emitted before the caller could add its listener (a VNC server's
   * greeting is), so the caller attaches its listeners and then calls `resume()`. A refused
   * upgrade throws an ApiError with the server's Status (virt-api settles every refusal before
   * the upgrade, so there is one).
   */
  async openWebSocket(path: string, protocol: string): Promise<WebSocket> {
    const url = this.#urlOf(path);
    url.protocol = url.protocol === "http:" ? "ws:" : "wss:";
    const options = await this.#options({});
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, [protocol], {
        ...options,
        perMessageDeflate: false,
        handshakeTimeout: REQUEST_TIMEOUT_MS,
      });
      socket.binaryType = "nodebuffer";
      const onError = (error: Error) => failed(this.#unreachable(error));
      const failed = (error: Error) => {
        socket.removeAllListeners("open");
        socket.removeListener("error", onError);
        // What the socket reports after the failure (its abort) is not news.
        socket.on("error", () => undefined);
        if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
        reject(error);
      };
      socket.once("open", () => {
        // Synchronously, before the data already read is emitted (on the next tick).
        socket.pause();
        socket.removeListener("error", onError);
        resolve(socket);
      });
      socket.once("unexpected-response", (_request, response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          failed(
            new ApiError(
              response.statusCode ?? 0,
              Buffer.concat(chunks).toString("utf8"),
              `the WebSocket on ${path}`,
            ),
          ),
        );
        response.on("error", (error) => failed(this.#unreachable(error)));
      });
      socket.on("error", onError);
    });
  }

  #urlOf(path: string): URL {
    // The server URL may carry a path prefix (a proxy such as Rancher's): paths go under it.
    const url = new URL(this.server.toString());
    const [pathname = "", search] = path.split("?", 2);
    url.pathname = `${url.pathname.replace(/\/$/, "")}${pathname}`;
    url.search = search === undefined ? "" : `?${search}`;
    return url;
  }

  async #options(base: RequestOptions): Promise<RequestOptions> {
    const options: RequestOptions = { ...base, agent: false };
    try {
      await this.#config.applyToHTTPSOptions(options);
    } catch (error) {
      throw new CliError(`cannot get credentials from ${this.origin}: ${oneLine(error)}`, { cause: error });
    }
    return options;
  }

  #unreachable(error: Error): CliError {
    return new CliError(
      `cannot reach the API server ${this.server.origin} (${this.origin}): ${oneLine(error)}`,
      {
        cause: error,
      },
    );
  }
}
