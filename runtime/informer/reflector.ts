import type { Logger } from "pino";
import { apiErrorFromResponse, isExpired } from "../client/api-errors.js";
import type { ResourceClient } from "../client/resource-client.js";
import { Backoff, type BackoffOptions } from "../clock/backoff.js";
import { type Clock, sleep, systemClock } from "../clock/clock.js";
import type { KubeObject } from "../objects/kube-object.js";
import { type InformerMetrics, noInformerMetrics } from "./informer-metrics.js";

/** Where the reflector delivers what it learns. */
export interface ReflectorSink<T> {
  /** The complete state after a (re)list. */
  replace(items: T[], resourceVersion: string): void;
  /** One change from the watch. */
  apply(type: "ADDED" | "MODIFIED" | "DELETED", object: T): void;
}

export interface ReflectorOptions<T extends KubeObject> {
  client: ResourceClient<T>;
  sink: ReflectorSink<T>;
  log: Logger;
  /** Watch one namespace; default all. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  clock?: Clock;
  /** Delays between attempts (default 200 ms doubling to 30 s, with jitter). */
  backoff?: BackoffOptions;
  /** Each watch asks the server to end it after a random time in [min, 2·min] seconds (default 300). */
  minWatchTimeoutSeconds?: number;
  /** A watch open this long counts as healthy even without events: the backoff starts over (default 10 s). */
  healthyAfterMs?: number;
  /**
   * Page size of lists; default one request. (client-go pages in theory, but lists with
   * resourceVersion=0, which the API server answers from its cache in one piece; the dev
   * cluster's paging costs a full scan per page.)
   */
  pageSize?: number;
  metrics?: InformerMetrics;
  /** Told about every failed list or watch (the loop goes on). */
  onError?: (error: unknown) => void;
}

/**
 * The list-then-watch loop behind an informer (client-go's Reflector). It lists, then watches
 * from the list's resourceVersion; when the watch ends it watches again from the last version
 * seen; on 410 Expired it lists again. Every failure is logged, reported and retried after a
 * backoff with jitter, so the loop ends only when its signal aborts: it never stops silently
 * (client-node's informer stops for good on a watch error and retries in a tight loop).
 */
export class Reflector<T extends KubeObject> {
  readonly #options: ReflectorOptions<T>;
  readonly #clock: Clock;
  readonly #backoff: Backoff;
  readonly #metrics: InformerMetrics;
  /** undefined until the first list, and again after a 410 (relist). */
  #resourceVersion: string | undefined;
  /** True once the current watch delivered an event: it works, so the backoff starts over. */
  #progressed = false;

  constructor(options: ReflectorOptions<T>) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#backoff = new Backoff(options.backoff);
    this.#metrics = options.metrics ?? noInformerMetrics;
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.#progressed = false;
      const startedAt = this.#clock.now();
      try {
        if (this.#resourceVersion === undefined) await this.#list(signal);
        await this.#watch(this.#resourceVersion as string, signal);
      } catch (error) {
        if (signal.aborted) break;
        this.#onFailure(error);
      }
      const lasted = this.#clock.now() - startedAt;
      if (this.#progressed || lasted >= (this.#options.healthyAfterMs ?? 10_000)) this.#backoff.reset();
      await sleep(this.#clock, this.#backoff.next(), signal);
    }
  }

  #onFailure(error: unknown): void {
    if (isExpired(error)) {
      // The server no longer has the history from our version: start over from a fresh list.
      this.#options.log.info({ resourceVersion: this.#resourceVersion }, "watch expired (410): relisting");
      this.#resourceVersion = undefined;
      return;
    }
    this.#metrics.failed();
    this.#options.log.warn(
      { err: error, resourceVersion: this.#resourceVersion, failures: this.#backoff.failures + 1 },
      "list/watch failed: retrying with backoff",
    );
    this.#options.onError?.(error);
  }

  async #list(signal: AbortSignal): Promise<void> {
    const { client, namespace, labelSelector, fieldSelector } = this.#options;
    const items: T[] = [];
    let resourceVersion = "";
    let next: string | undefined;
    do {
      const page = await client.list({
        ...(namespace ? { namespace } : {}),
        ...(labelSelector ? { labelSelector } : {}),
        ...(fieldSelector ? { fieldSelector } : {}),
        ...(this.#options.pageSize ? { limit: this.#options.pageSize } : {}),
        ...(next ? { continue: next } : {}),
        signal,
      });
      for (const item of page.items) items.push(item);
      resourceVersion ||= page.resourceVersion;
      next = page.continue;
    } while (next);
    this.#metrics.listed();
    this.#options.sink.replace(items, resourceVersion);
    this.#resourceVersion = resourceVersion;
  }

  async #watch(from: string, signal: AbortSignal): Promise<void> {
    const { client, namespace, labelSelector, fieldSelector } = this.#options;
    const minTimeout = this.#options.minWatchTimeoutSeconds ?? 300;
    const timeoutSeconds = Math.round(minTimeout * (1 + Math.random()));
    // If the server never ends the stream (a dead peer without a reset), end it ourselves.
    const watchSignal = AbortSignal.any([signal, AbortSignal.timeout((timeoutSeconds + 30) * 1000)]);
    const events = await client.watch({
      ...(namespace ? { namespace } : {}),
      ...(labelSelector ? { labelSelector } : {}),
      ...(fieldSelector ? { fieldSelector } : {}),
      resourceVersion: from,
      timeoutSeconds,
      signal: watchSignal,
    });
    this.#metrics.watchStarted();
    for await (const event of events) {
      if (event.type === "ERROR") {
        const status = event.object;
        throw apiErrorFromResponse("WATCH", client.kind.plural, status.code ?? 500, JSON.stringify(status));
      }
      this.#progressed = true;
      if (event.type !== "BOOKMARK") this.#options.sink.apply(event.type, event.object);
      const version = event.object.metadata?.resourceVersion;
      if (version) this.#resourceVersion = version;
    }
  }
}
