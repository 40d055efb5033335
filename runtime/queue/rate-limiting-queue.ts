import { defaultControllerRateLimiter, type RateLimiter } from "./rate-limiters.js";
import { WorkQueue, type WorkQueueOptions } from "./work-queue.js";

export interface RateLimitingQueueOptions extends WorkQueueOptions {
  rateLimiter?: RateLimiter;
}

/**
 * A work queue with delayed adds and per-key retry backoff (client-go's delaying and
 * rate-limiting queues). A key waiting for its delay is not in the queue yet: a plain `add`
 * meanwhile queues it at once, and of several delayed adds the earliest wins.
 */
export class RateLimitingQueue extends WorkQueue {
  readonly #rateLimiter: RateLimiter;
  readonly #waiting = new Map<string, { readyAt: number; cancel: () => void }>();

  constructor(options: RateLimitingQueueOptions = {}) {
    super(options);
    this.#rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter({ clock: this.clock });
  }

  /** Adds `key` once `delayMs` have passed. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const readyAt = this.clock.now() + delayMs;
    const waiting = this.#waiting.get(key);
    if (waiting && waiting.readyAt <= readyAt) return;
    waiting?.cancel();
    const cancel = this.clock.schedule(() => {
      this.#waiting.delete(key);
      this.add(key);
    }, delayMs);
    this.#waiting.set(key, { readyAt, cancel });
  }

  /** Adds `key` after its backoff: call after a failed attempt. */
  addRateLimited(key: string): void {
    if (this.shuttingDown) return;
    this.metrics.retried();
    this.addAfter(key, this.#rateLimiter.when(key));
  }

  /** Clears `key`'s failure history: call after a successful attempt. */
  forget(key: string): void {
    this.#rateLimiter.forget(key);
  }

  /** How many times `key` failed since it was last forgotten. */
  retries(key: string): number {
    return this.#rateLimiter.retries(key);
  }

  override shutDown(): void {
    for (const { cancel } of this.#waiting.values()) cancel();
    this.#waiting.clear();
    super.shutDown();
  }
}
