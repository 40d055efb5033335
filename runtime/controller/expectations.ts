import { type Clock, systemClock } from "../clock/clock.js";

/**
 * Expectations cover the cache lag after a controller's own writes (KubeVirt's and
 * kube-controller-manager's ControllerExpectations). Before creating N children for a parent, a
 * controller calls `expectCreations(parentKey, N)`; the informer's add handler calls
 * `creationObserved(parentKey)` for each child it sees. Until all are seen,
 * `satisfied(parentKey)` is false and the reconcile must not act on the (stale) count of
 * children, or it would create them twice. Deletions work the same way; `expectDeletionsOf`
 * tracks which children, so a delete we did not ask for is not counted as ours.
 * Expectations expire after `ttlMs` so that a missed watch event cannot block a parent forever.
 */
export interface ExpectationsOptions {
  /** Default 5 minutes, as upstream. */
  ttlMs?: number;
  clock?: Clock;
}

interface Expectation {
  adds: number;
  deletes: number;
  setAt: number;
  /** Child keys whose deletion we wait for (only with expectDeletionsOf). */
  pendingDeletes: Set<string>;
}

export class Expectations {
  readonly #records = new Map<string, Expectation>();
  readonly #ttlMs: number;
  readonly #clock: Clock;

  constructor(options: ExpectationsOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#clock = options.clock ?? systemClock;
  }

  /** Replaces what is expected for `key`. */
  set(key: string, adds: number, deletes: number): void {
    this.#records.set(key, { adds, deletes, setAt: this.#clock.now(), pendingDeletes: new Set() });
  }

  expectCreations(key: string, count: number): void {
    this.set(key, count, 0);
  }

  expectDeletions(key: string, count: number): void {
    this.set(key, 0, count);
  }

  /** Expects the deletion of exactly these children (by their keys). */
  expectDeletionsOf(key: string, childKeys: readonly string[]): void {
    const record: Expectation = {
      adds: 0,
      deletes: 0,
      setAt: this.#clock.now(),
      pendingDeletes: new Set(childKeys),
    };
    record.deletes = record.pendingDeletes.size;
    this.#records.set(key, record);
  }

  /** Adds to what is expected, e.g. when a second batch of creates follows the first. */
  raise(key: string, adds: number, deletes: number): void {
    const record = this.#records.get(key);
    if (!record) {
      this.set(key, adds, deletes);
      return;
    }
    record.adds += adds;
    record.deletes += deletes;
  }

  /** Lowers what is expected; also used when a create we expected failed and will not show up. */
  lower(key: string, adds: number, deletes: number): void {
    const record = this.#records.get(key);
    if (!record) return;
    record.adds -= adds;
    record.deletes -= deletes;
  }

  creationObserved(key: string): void {
    this.lower(key, 1, 0);
  }

  deletionObserved(key: string): void {
    this.lower(key, 0, 1);
  }

  /** A child's deletion was seen; counts only if it is one we asked for with expectDeletionsOf. */
  deletionObservedOf(key: string, childKey: string): void {
    const record = this.#records.get(key);
    if (record?.pendingDeletes.delete(childKey)) record.deletes -= 1;
  }

  /**
   * True when the controller may trust its cache for `key`: nothing expected, everything
   * expected was observed, or the expectation is older than the TTL.
   */
  satisfied(key: string): boolean {
    const record = this.#records.get(key);
    if (!record) return true;
    if (record.adds <= 0 && record.deletes <= 0) return true;
    return this.#clock.now() - record.setAt > this.#ttlMs;
  }

  /** What is still expected for `key`, for logs and tests. */
  pending(key: string): { adds: number; deletes: number } | undefined {
    const record = this.#records.get(key);
    return record ? { adds: record.adds, deletes: record.deletes } : undefined;
  }

  /** Forgets `key`, e.g. when the parent is deleted. */
  delete(key: string): void {
    this.#records.delete(key);
  }
}
