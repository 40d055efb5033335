import type { ReconcileResult } from "./reconcile-result.js";

/**
 * What every reconcile returns when the cache has not caught up with a write: nothing is done
 * now, and nothing waits on a timer, because the watch event that brings the newer version
 * enqueues the key again. One value, so that every controller treats a stale cache alike.
 */
export const CACHE_IS_BEHIND: ReconcileResult = Object.freeze({});

/**
 * Remembers, per object, the resourceVersion our last write was based on, so that a reconcile
 * woken before the cache shows that write does not compute from the old object and send a write
 * the server would refuse with a Conflict. resourceVersions are compared for equality only, as
 * the API requires: the cache still holding the version we wrote over means it is behind.
 * The watch event of our write brings the key back, so nothing waits on a timer.
 */
export class OwnWrites {
  readonly #basedOn = new Map<string, string>();

  /**
   * A write of `key` based on `basedOn` succeeded and the server answered `stored` (undefined
   * when the object is gone, e.g. its last finalizer was removed). A write the server found to
   * change nothing keeps the version and sends no event: there is nothing to wait for.
   */
  wrote(key: string, basedOn: string | undefined, stored: string | undefined): void {
    if (basedOn && stored !== basedOn) this.#basedOn.set(key, basedOn);
  }

  /** True while the cache still shows the version our last write replaced. */
  cacheIsBehind(key: string, cachedResourceVersion: string | undefined): boolean {
    const basedOn = this.#basedOn.get(key);
    if (basedOn === undefined) return false;
    if (basedOn === cachedResourceVersion) return true;
    this.#basedOn.delete(key);
    return false;
  }

  /** The object is gone from the cache: nothing of it is worth remembering. */
  forget(key: string): void {
    this.#basedOn.delete(key);
  }
}
