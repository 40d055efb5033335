import type { Logger } from "pino";

/**
 * A tiny de-duplicating work queue for the API server's own controllers (garbage collector,
 * namespace and CRD lifecycle). Keys are processed after the current write's events have all
 * been delivered; a failing key is retried after a delay. The server runs one process, so
 * this needs none of the runtime's machinery.
 */
export class KeyQueue {
  readonly #pending = new Set<string>();
  readonly #process: (key: string) => void;
  readonly #log: Logger;
  #scheduled = false;
  #stopped = false;
  readonly #retries = new Set<NodeJS.Timeout>();

  constructor(process: (key: string) => void, log: Logger) {
    this.#process = process;
    this.#log = log;
  }

  add(key: string): void {
    if (this.#stopped) return;
    this.#pending.add(key);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#drain());
    }
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#retries) clearTimeout(timer);
  }

  #drain(): void {
    this.#scheduled = false;
    const keys = [...this.#pending];
    this.#pending.clear();
    for (const key of keys) {
      if (this.#stopped) return;
      try {
        this.#process(key);
      } catch (error) {
        this.#log.warn({ err: error, key }, "server controller failed; retrying");
        const timer = setTimeout(() => {
          this.#retries.delete(timer);
          this.add(key);
        }, 500);
        this.#retries.add(timer);
      }
    }
  }
}
