// The informer shows a VMI as it was before our own last write for a moment (the watch event of
// the write is on its way). Deciding on that stale copy would repeat the write and fail with a
// conflict, so a key whose cached resourceVersion is still the one our write replaced waits for
// the informer (its update event enqueues the key again). resourceVersions are compared for
// equality only, as the API requires.
export class OwnWrites {
  readonly #replaced = new Map<string, string>();

  /** Records that a write of `key` replaced the version `replacedVersion`. */
  wrote(key: string, replacedVersion: string | undefined): void {
    if (replacedVersion !== undefined) this.#replaced.set(key, replacedVersion);
  }

  /** True while the cache still holds the version our last write replaced. */
  isStale(key: string, cachedVersion: string | undefined): boolean {
    const replaced = this.#replaced.get(key);
    if (replaced === undefined) return false;
    if (replaced === cachedVersion) return true;
    this.#replaced.delete(key);
    return false;
  }

  forget(key: string): void {
    this.#replaced.delete(key);
  }
}
