import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";

/**
 * Counts the write requests (anything but GET) one in-process component sends, by its
 * User-Agent, through Node's HTTP client diagnostics channel. resourceVersions cannot show a
 * server-side apply that changed nothing; this sees every request that left the process.
 */
export class WriteCounter {
  readonly #userAgent: string;
  readonly #writes: string[] = [];
  readonly #onRequest = (message: unknown): void => {
    const request = (message as { request?: ClientRequest }).request;
    if (!request || request.method === "GET") return;
    if (request.getHeader("User-Agent") !== this.#userAgent) return;
    this.#writes.push(`${request.method} ${request.path}`);
  };

  constructor(userAgent: string) {
    this.#userAgent = userAgent;
    subscribe("http.client.request.start", this.#onRequest);
  }

  /** The writes seen so far, as `METHOD path`. */
  get writes(): readonly string[] {
    return this.#writes;
  }

  stop(): void {
    unsubscribe("http.client.request.start", this.#onRequest);
  }
}
