/**
 * Exponential backoff with jitter for reconnect loops (watches, leader election): the delay
 * doubles on each failure up to `maxMs`, each wait is spread by `jitter` so that many clients
 * restarted together do not retry in lockstep, and `reset()` goes back to `initialMs` once
 * things work again.
 */
export interface BackoffOptions {
  /** First delay (default 200 ms). */
  initialMs?: number;
  /** Ceiling (default 30 s). */
  maxMs?: number;
  /** Growth per failure (default 2). */
  factor?: number;
  /** Each delay is multiplied by a random value in [1, 1 + jitter] (default 0.5). */
  jitter?: number;
  /** Source of randomness in [0, 1) (default Math.random). */
  random?: () => number;
}

export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #factor: number;
  readonly #jitter: number;
  readonly #random: () => number;
  #failures = 0;

  constructor(options: BackoffOptions = {}) {
    this.#initialMs = options.initialMs ?? 200;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#factor = options.factor ?? 2;
    this.#jitter = options.jitter ?? 0.5;
    this.#random = options.random ?? Math.random;
    if (this.#initialMs <= 0 || this.#maxMs < this.#initialMs) {
      throw new Error(`invalid backoff: initial ${this.#initialMs} ms, max ${this.#maxMs} ms`);
    }
  }

  /** The delay before the next attempt; each call counts one more failure. */
  next(): number {
    const base = Math.min(this.#maxMs, this.#initialMs * this.#factor ** this.#failures);
    this.#failures++;
    return Math.min(this.#maxMs * (1 + this.#jitter), base * (1 + this.#jitter * this.#random()));
  }

  reset(): void {
    this.#failures = 0;
  }

  get failures(): number {
    return this.#failures;
  }
}
