import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { type Clock, systemClock } from "../clock/clock.js";
import type { SharedInformer } from "../informer/shared-informer.js";
import type { KubeObject } from "../objects/kube-object.js";
import { parseKey } from "../objects/object-key.js";
import type { QueueMetrics } from "../queue/queue-metrics.js";
import type { RateLimiter } from "../queue/rate-limiters.js";
import { RateLimitingQueue } from "../queue/rate-limiting-queue.js";
import { type KeyMapper, ownKey } from "./enqueue-mappers.js";
import {
  type ControllerMetrics,
  noControllerMetrics,
  type Reconcile,
  type ReconcileOutcome,
  type ReconcileResult,
  TerminalError,
} from "./reconcile-result.js";

export interface ControllerOptions {
  /** Names the controller in logs and metrics, e.g. "vm". */
  name: string;
  reconcile: Reconcile;
  log: Logger;
  /** Reconciles running at once, never two for the same key (default 1). */
  workers?: number;
  /** Retry delays after failures (default: 5 ms doubling per key, 10 qps overall). */
  rateLimiter?: RateLimiter;
  clock?: Clock;
  metrics?: ControllerMetrics;
  queueMetrics?: QueueMetrics;
  /** Whether it runs only on the leader (default true). */
  needsLeaderElection?: boolean;
}

interface WatchedInformer {
  waitForSync(signal?: AbortSignal): Promise<boolean>;
}

/**
 * A controller: event handlers put keys into a rate-limited queue, N workers take them and
 * call `reconcile`. Workers start only after every watched informer has synced. A reconcile
 * that throws is retried with per-key backoff; a TerminalError is logged and counted, not
 * retried; `requeueAfterMs` looks again later. Nothing a reconcile does can crash the loop.
 */
export class Controller {
  readonly name: string;
  readonly needsLeaderElection: boolean;
  readonly queue: RateLimitingQueue;
  readonly #options: ControllerOptions;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #metrics: ControllerMetrics;
  readonly #informers: WatchedInformer[] = [];
  readonly #removeHandlers: (() => void)[] = [];
  #started = false;

  constructor(options: ControllerOptions) {
    this.name = options.name;
    this.needsLeaderElection = options.needsLeaderElection ?? true;
    this.#options = options;
    this.#log = options.log.child({ controller: options.name });
    this.#clock = options.clock ?? systemClock;
    this.#metrics = options.metrics ?? noControllerMetrics;
    this.queue = new RateLimitingQueue({
      clock: this.#clock,
      ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
      ...(options.queueMetrics ? { metrics: options.queueMetrics } : {}),
    });
  }

  /** Enqueues the keys `toKeys` maps every added, updated or deleted object of `informer` to. */
  watch<T extends KubeObject>(informer: SharedInformer<T>, toKeys: KeyMapper<T> = ownKey): void {
    const enqueue = (object: Parameters<KeyMapper<T>>[0]): void => {
      for (const key of toKeys(object)) this.queue.add(key);
    };
    this.#informers.push(informer);
    this.#removeHandlers.push(
      informer.addEventHandler({
        onAdd: enqueue,
        onUpdate: (_previous, current) => enqueue(current),
        onDelete: enqueue,
      }),
    );
  }

  /** Waits for `informer` to sync before starting workers, without enqueueing from it. */
  dependsOn(informer: WatchedInformer): void {
    this.#informers.push(informer);
  }

  enqueue(key: string): void {
    this.queue.add(key);
  }

  enqueueAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, delayMs);
  }

  /**
   * Runs until `signal` aborts: waits for the caches, then runs the workers. On abort it stops
   * taking keys, lets in-flight reconciles finish (they see the signal), and resolves.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new Error(`controller ${this.name} was already started`);
    this.#started = true;
    const stopQueue = (): void => this.queue.shutDown();
    signal.addEventListener("abort", stopQueue, { once: true });
    try {
      const synced = (
        await Promise.all(this.#informers.map((informer) => informer.waitForSync(signal)))
      ).every(Boolean);
      if (!synced || signal.aborted) return;
      const workers = this.#options.workers ?? 1;
      this.#log.info({ workers }, "caches synced: starting workers");
      await Promise.all(Array.from({ length: workers }, () => this.#work(signal)));
    } finally {
      signal.removeEventListener("abort", stopQueue);
      await this.queue.shutDownWithDrain();
      for (const remove of this.#removeHandlers.splice(0)) remove();
      this.#log.info("stopped");
    }
  }

  async #work(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      // Keys still queued at shutdown are left for the next process (or the next leader).
      if (signal.aborted) {
        this.queue.done(key);
        continue;
      }
      this.#metrics.activeWorkers(1);
      try {
        await this.#reconcileKey(key, signal);
      } finally {
        this.#metrics.activeWorkers(-1);
        this.queue.done(key);
      }
    }
  }

  async #reconcileKey(key: string, signal: AbortSignal): Promise<void> {
    const startedAt = this.#clock.now();
    const finish = (outcome: ReconcileOutcome): void =>
      this.#metrics.reconciled(outcome, (this.#clock.now() - startedAt) / 1000);
    let ref: { namespace?: string; name: string };
    try {
      ref = parseKey(key);
    } catch (error) {
      this.#log.error({ err: error, key }, "dropping an invalid key");
      this.queue.forget(key);
      return finish("terminal_error");
    }
    const log = this.#log.child({ ...ref, reconcileId: randomUUID() });
    let result: ReconcileResult | undefined;
    try {
      result = (await this.#options.reconcile({ key, ...ref, log, signal })) ?? undefined;
    } catch (error) {
      return finish(this.#onError(key, error, log));
    }
    this.queue.forget(key);
    const after = result?.requeueAfterMs;
    if (after !== undefined && after > 0) {
      this.queue.addAfter(key, after);
      return finish("requeue_after");
    }
    finish("success");
  }

  #onError(key: string, error: unknown, log: Logger): ReconcileOutcome {
    if (error instanceof TerminalError) {
      log.error({ err: error, reason: error.reason }, "reconcile failed with a terminal error: not retrying");
      this.queue.forget(key);
      return "terminal_error";
    }
    const retries = this.queue.retries(key);
    log[retries >= 5 ? "error" : "warn"]({ err: error, retries }, "reconcile failed: retrying with backoff");
    this.queue.addRateLimited(key);
    return "error";
  }
}
