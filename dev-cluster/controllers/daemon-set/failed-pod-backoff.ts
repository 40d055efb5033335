import type { Clock } from "../../../runtime/index.js";

/**
 * Back-off per DaemonSet and node before replacing a failed pod again (kube's failedPodsBackoff:
 * 1 s doubling to 15 min), so a node that keeps rejecting a pod is not hammered.
 */
export class FailedPodBackoff {
  readonly #clock: Clock;
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #entries = new Map<string, { delayMs: number; lastMs: number }>();

  constructor(clock: Clock, initialMs = 1000, maxMs = 15 * 60_000) {
    this.#clock = clock;
    this.#initialMs = initialMs;
    this.#maxMs = maxMs;
  }

  /** Milliseconds left before `key` may be retried; 0 when it may be now. */
  remainingMs(key: string): number {
    const entry = this.#entries.get(key);
    if (!entry) return 0;
    return Math.max(0, entry.lastMs + entry.delayMs - this.#clock.now());
  }

  /** Records an attempt: the next one waits twice as long (reset after a long quiet period). */
  next(key: string): void {
    const now = this.#clock.now();
    const entry = this.#entries.get(key);
    const expired = !entry || now - entry.lastMs > 2 * this.#maxMs;
    const delayMs = expired ? this.#initialMs : Math.min(entry.delayMs * 2, this.#maxMs);
    this.#entries.set(key, { delayMs, lastMs: now });
  }

  /** Forgets every entry of a DaemonSet (`prefix` is its key). */
  forget(prefix: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(`${prefix}/`)) this.#entries.delete(key);
  }
}
