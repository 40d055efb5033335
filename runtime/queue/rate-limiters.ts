import { type Clock, systemClock } from "../clock/clock.js";

/**
 * How long a key waits before it is retried (client-go's `workqueue.TypedRateLimiter`).
 * `when` counts one more failure of the key; `forget` clears its history after a success.
 */
export interface RateLimiter {
  when(key: string): number;
  forget(key: string): void;
  retries(key: string): number;
}

/** Per-key exponential backoff: base·2^failures, capped (client-go default 5 ms … 1000 s). */
export class ItemExponentialRateLimiter implements RateLimiter {
  readonly #failures = new Map<string, number>();
  readonly #baseMs: number;
  readonly #maxMs: number;

  constructor(baseMs = 5, maxMs = 1_000_000) {
    if (baseMs <= 0 || maxMs < baseMs)
      throw new Error(`invalid exponential rate limiter: base ${baseMs} ms, max ${maxMs} ms`);
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
  }

  when(key: string): number {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    // Past 2^50 the product overflows any useful cap anyway; avoid Infinity arithmetic.
    if (failures > 50) return this.#maxMs;
    return Math.min(this.#maxMs, this.#baseMs * 2 ** failures);
  }

  forget(key: string): void {
    this.#failures.delete(key);
  }

  retries(key: string): number {
    return this.#failures.get(key) ?? 0;
  }
}

/**
 * An overall limit shared by all keys: a token bucket of `burst` tokens refilled at `qps` per
 * second. Each retry takes a token; with none left, it waits for the next one. This keeps a
 * storm of failing keys from hammering the API server (client-go default 10 qps, burst 100).
 */
export class TokenBucketRateLimiter implements RateLimiter {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #updatedAt: number;

  constructor(qps = 10, burst = 100, clock: Clock = systemClock) {
    if (qps <= 0 || burst < 1) throw new Error(`invalid token bucket: ${qps} qps, burst ${burst}`);
    this.#qps = qps;
    this.#burst = burst;
    this.#clock = clock;
    this.#tokens = burst;
    this.#updatedAt = clock.now();
  }

  when(): number {
    const now = this.#clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#updatedAt) / 1000) * this.#qps);
    this.#updatedAt = now;
    // Reserve a token even when none is left: the balance goes negative and later callers wait longer.
    this.#tokens -= 1;
    if (this.#tokens >= 0) return 0;
    return (-this.#tokens / this.#qps) * 1000;
  }

  forget(): void {}

  retries(): number {
    return 0;
  }
}

/** The longest wait any of the limiters asks for (client-go's MaxOfRateLimiter). */
export class MaxOfRateLimiter implements RateLimiter {
  readonly #limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    if (limiters.length === 0) throw new Error("MaxOfRateLimiter needs at least one limiter");
    this.#limiters = limiters;
  }

  when(key: string): number {
    return Math.max(...this.#limiters.map((limiter) => limiter.when(key)));
  }

  forget(key: string): void {
    for (const limiter of this.#limiters) limiter.forget(key);
  }

  retries(key: string): number {
    return Math.max(...this.#limiters.map((limiter) => limiter.retries(key)));
  }
}

export interface DefaultRateLimiterOptions {
  /** First retry delay of a key (default 5 ms). */
  baseDelayMs?: number;
  /** Longest retry delay of a key (default 1000 s). */
  maxDelayMs?: number;
  /** Retries per second over all keys (default 10). */
  qps?: number;
  /** Retries allowed at once before the qps limit applies (default 100). */
  burst?: number;
  clock?: Clock;
}

/** client-go's DefaultTypedControllerRateLimiter: per-key exponential backoff plus an overall bucket. */
export function defaultControllerRateLimiter(options: DefaultRateLimiterOptions = {}): RateLimiter {
  return new MaxOfRateLimiter(
    new ItemExponentialRateLimiter(options.baseDelayMs ?? 5, options.maxDelayMs ?? 1_000_000),
    new TokenBucketRateLimiter(options.qps ?? 10, options.burst ?? 100, options.clock ?? systemClock),
  );
}
