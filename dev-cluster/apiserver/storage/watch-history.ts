import type { ChangeRow } from "./sqlite-log.js";

/** A committed change as watchers see it: the object is kept serialised, parsed only when needed. */
export type ChangeEvent = ChangeRow;

export type ChangeListener = (event: ChangeEvent) => void;

/**
 * The bounded window of recent changes that watches replay from, and the fan-out of new ones.
 * A watch may start at any resourceVersion from which every later change is still in the
 * window; older ones get 410 Expired, and the client relists.
 */
export class WatchHistory {
  readonly #capacity: number;
  #events: ChangeEvent[] = [];
  #start = 0;
  readonly #listeners = new Set<ChangeListener>();

  constructor(capacity: number, initial: ChangeEvent[]) {
    this.#capacity = capacity;
    this.#events = initial.slice(-capacity);
  }

  /**
   * Whether every change after `rv` is still known. `revision` is the store's current
   * resourceVersion: a watch from there (or later) needs no history.
   */
  covers(rv: number, revision: number): boolean {
    if (rv >= revision) return true;
    const oldest = this.#events[this.#start];
    return oldest !== undefined && rv >= oldest.rv - 1;
  }

  /** The resourceVersion of the oldest change still replayable, for the 410 message. */
  oldestRevision(revision: number): number {
    return this.#events[this.#start]?.rv ?? revision;
  }

  /** Changes after `rv`, oldest first. */
  since(rv: number): ChangeEvent[] {
    const result: ChangeEvent[] = [];
    for (let i = this.#events.length - 1; i >= this.#start; i--) {
      const event = this.#events[i];
      if (event === undefined || event.rv <= rv) break;
      result.push(event);
    }
    return result.reverse();
  }

  record(event: ChangeEvent): void {
    this.#events.push(event);
    // Drop from the front in chunks so that recording stays O(1) amortised.
    if (this.#events.length - this.#start > this.#capacity) this.#start++;
    if (this.#start > this.#capacity) {
      this.#events = this.#events.slice(this.#start);
      this.#start = 0;
    }
    for (const listener of this.#listeners) listener(event);
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
