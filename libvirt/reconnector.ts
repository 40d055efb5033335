export interface ReconnectOptions {
  /** Wait before the first attempt, doubled after each failure. Default 100 ms. */
  readonly initialDelayMs?: number;
  /** Longest wait between attempts. Default 5 s. */
  readonly maxDelayMs?: number;
}

/**
 * Retries `attempt` with exponential backoff (plus up to 20 % jitter, so that many clients of one
 * restarted daemon do not reconnect in lockstep) until it succeeds or `stop()` is called.
 */
export class Reconnector {
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #attempt: () => Promise<void>;
  readonly #onFailure: (err: Error, attempt: number) => void;
  #timer: NodeJS.Timeout | null = null;
  #running = false;

  constructor(
    options: ReconnectOptions,
    attempt: () => Promise<void>,
    onFailure: (err: Error, attempt: number) => void,
  ) {
    this.#initialDelayMs = options.initialDelayMs ?? 100;
    this.#maxDelayMs = options.maxDelayMs ?? 5_000;
    this.#attempt = attempt;
    this.#onFailure = onFailure;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(1);
  }

  stop(): void {
    this.#running = false;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #schedule(attempt: number): void {
    const base = Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** (attempt - 1));
    const delay = base * (1 + Math.random() * 0.2);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#run(attempt);
    }, delay);
  }

  #run(attempt: number): void {
    if (!this.#running) return;
    this.#attempt().then(
      () => {
        this.#running = false;
      },
      (err: unknown) => {
        if (!this.#running) return;
        this.#onFailure(err instanceof Error ? err : new Error(String(err)), attempt);
        this.#schedule(attempt + 1);
      },
    );
  }
}
