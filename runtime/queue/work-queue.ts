import { type Clock, systemClock } from "../clock/clock.js";
import { Fifo } from "./fifo.js";
import { noQueueMetrics, type QueueMetrics } from "./queue-metrics.js";

export interface WorkQueueOptions {
  clock?: Clock;
  metrics?: QueueMetrics;
}

/**
 * client-go's work queue (`util/workqueue/queue.go`). A key is in `dirty` while it waits to be
 * processed and in `processing` while a worker holds it. So:
 * - a key queued twice before a worker takes it is processed once (never queued twice);
 * - a key added while a worker holds it waits in `dirty` and is queued again only when that
 *   worker calls `done` (never processed by two workers at once, and the change is not lost).
 * After `shutDown`, adds are ignored; `get` still hands out what was queued, then returns
 * undefined to tell workers to exit.
 */
export class WorkQueue {
  readonly #queue = new Fifo<string>();
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #queuedAt = new Map<string, number>();
  readonly #startedAt = new Map<string, number>();
  readonly #waiters: ((key: string | undefined) => void)[] = [];
  readonly #drainWaiters: (() => void)[] = [];
  protected readonly clock: Clock;
  protected readonly metrics: QueueMetrics;
  #shuttingDown = false;

  constructor(options: WorkQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.metrics = options.metrics ?? noQueueMetrics;
  }

  add(key: string): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.metrics.added();
    this.#dirty.add(key);
    this.#queuedAt.set(key, this.clock.now());
    if (this.#processing.has(key)) return;
    this.#enqueue(key);
  }

  /**
   * The next key to process, waiting for one if the queue is empty; undefined once the queue
   * is shut down and empty. Every key returned must be given back with `done`.
   */
  get(): Promise<string | undefined> {
    const key = this.#take();
    if (key !== undefined || this.#shuttingDown) return Promise.resolve(key);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The worker finished with `key`; if it was added meanwhile, it is queued again now. */
  done(key: string): void {
    if (!this.#processing.delete(key)) return;
    const startedAt = this.#startedAt.get(key);
    this.#startedAt.delete(key);
    if (startedAt !== undefined) this.metrics.worked((this.clock.now() - startedAt) / 1000);
    if (this.#dirty.has(key)) this.#enqueue(key);
    if (this.#processing.size === 0) this.#releaseDrainWaiters();
  }

  /** Keys waiting for a worker (not those being processed). */
  get length(): number {
    return this.#queue.length;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  isProcessing(key: string): boolean {
    return this.#processing.has(key);
  }

  /** Stops accepting keys; workers get what is still queued, then undefined. */
  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    for (const waiter of this.#waiters.splice(0)) waiter(undefined);
  }

  /** Shuts down and resolves once no worker holds a key any more. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  #enqueue(key: string): void {
    const waiter = this.#waiters.shift();
    if (waiter) {
      // Someone is already waiting: hand the key over directly.
      this.#queue.push(key);
      waiter(this.#take());
      return;
    }
    this.#queue.push(key);
    this.metrics.depth(this.#queue.length);
  }

  #take(): string | undefined {
    const key = this.#queue.shift();
    if (key === undefined) return undefined;
    this.metrics.depth(this.#queue.length);
    const now = this.clock.now();
    const queuedAt = this.#queuedAt.get(key);
    this.#queuedAt.delete(key);
    if (queuedAt !== undefined) this.metrics.waited((now - queuedAt) / 1000);
    this.#processing.add(key);
    this.#startedAt.set(key, now);
    this.#dirty.delete(key);
    return key;
  }

  #releaseDrainWaiters(): void {
    for (const waiter of this.#drainWaiters.splice(0)) waiter();
  }
}
