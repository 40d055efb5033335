import type { Logger } from "pino";
import type { ReconcileResult } from "../../../runtime/index.js";

/**
 * A tiny de-duplicating work queue for the API server's own controllers (garbage collector,
 * namespace and CRD lifecycle). Keys are processed after the current write's events have all
 * been delivered; a failing key is retried after a delay, and a result's `requeueAfterMs` looks
 * at the key again after that long, as the runtime's controllers do. The server runs one process
 * and its controllers read its store (no cache to lag), so this needs none of the runtime's
 * machinery.
 */
export class KeyQueue {
  readonly #pending = new Set<string>();
  readonly #process: (key: string) => ReconcileResult;
  readonly #log: Logger;
  #scheduled = false;
  #stopped = false;
  readonly #retries = new Set<NodeJS.Timeout>();

  constructor(process: (key: string) => ReconcileResult, log: Logger) {
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
        const { requeueAfterMs } = this.#process(key);
        if (requeueAfterMs !== undefined) this.#addAfter(key, requeueAfterMs);
      } catch (error) {
        this.#log.warn({ err: error, key }, "server controller failed; retrying");
        this.#addAfter(key, 500);
      }
    }
  }

  #addAfter(key: string, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#retries.delete(timer);
      this.add(key);
    }, delayMs);
    this.#retries.add(timer);
  }
}
