import { expired } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { type ChangeRow, SqliteLog } from "./sqlite-log.js";
import { type ChangeEvent, type ChangeListener, WatchHistory } from "./watch-history.js";

/** Identifies a stored object. `resource` is `<group>/<plural>`; cluster-scoped objects have namespace "". */
export interface ObjectKey {
  resource: string;
  namespace: string;
  name: string;
}

/** A write to apply atomically with others. `object` is absent for deletes. */
export type Mutation =
  | { type: "put"; key: ObjectKey; object: JsonObject }
  | { type: "delete"; key: ObjectKey; object: JsonObject };

interface Entry {
  rv: number;
  data: string;
}

export interface ObjectStoreOptions {
  /** SQLite file, or ":memory:". */
  path: string;
  /** How many recent changes watches can resume from. */
  historySize?: number;
}

function metadataOf(object: JsonObject): JsonObject {
  const metadata = object.metadata;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw new Error("stored objects must have metadata");
  }
  return metadata;
}

/**
 * The API server's storage: every object in memory (serialised, so memory stays small and
 * nobody mutates a stored object), every write committed to SQLite before it is acknowledged,
 * one global resourceVersion counter as etcd has, and the watch history.
 */
export class ObjectStore {
  readonly #log: SqliteLog;
  readonly #resources = new Map<string, Map<string, Entry>>();
  readonly #history: WatchHistory;
  readonly #historySize: number;
  #revision: number;

  constructor(options: ObjectStoreOptions) {
    this.#log = new SqliteLog(options.path);
    this.#revision = this.#log.revision();
    for (const row of this.#log.loadObjects()) {
      this.#bucket(row.resource).set(`${row.namespace}/${row.name}`, { rv: row.rv, data: row.data });
    }
    const historySize = options.historySize ?? 10_000;
    this.#historySize = historySize;
    this.#history = new WatchHistory(historySize, this.#log.loadRecentChanges(historySize));
  }

  revision(): number {
    return this.#revision;
  }

  get(key: ObjectKey): JsonObject | undefined {
    const entry = this.#resources.get(key.resource)?.get(`${key.namespace}/${key.name}`);
    return entry ? (JSON.parse(entry.data) as JsonObject) : undefined;
  }

  /** Objects of a resource (in one namespace, or all), ordered by namespace then name. */
  list(resource: string, namespace?: string): JsonObject[] {
    const bucket = this.#resources.get(resource);
    if (!bucket) return [];
    const keys = [...bucket.keys()]
      .filter((k) => namespace === undefined || k.startsWith(`${namespace}/`))
      .sort();
    return keys.map((k) => JSON.parse((bucket.get(k) as Entry).data) as JsonObject);
  }

  /**
   * One page of a resource's objects in key order (`<namespace>/<name>`): at most `limit`
   * objects after the key `after`, parsing only those. `remaining` counts what follows.
   */
  listPage(
    resource: string,
    namespace: string | undefined,
    after: string | undefined,
    limit: number,
  ): {
    items: JsonObject[];
    remaining: number;
  } {
    const bucket = this.#resources.get(resource);
    if (!bucket) return { items: [], remaining: 0 };
    const keys = [...bucket.keys()]
      .filter(
        (k) =>
          (namespace === undefined || k.startsWith(`${namespace}/`)) && (after === undefined || k > after),
      )
      .sort();
    const items = keys.slice(0, limit).map((k) => JSON.parse((bucket.get(k) as Entry).data) as JsonObject);
    return { items, remaining: Math.max(0, keys.length - limit) };
  }

  /** Serialised objects of a resource, for callers that only count or scan. */
  count(resource: string, namespace?: string): number {
    const bucket = this.#resources.get(resource);
    if (!bucket) return 0;
    if (namespace === undefined) return bucket.size;
    let n = 0;
    for (const k of bucket.keys()) if (k.startsWith(`${namespace}/`)) n++;
    return n;
  }

  /** Every resource name that holds at least one object. */
  resources(): string[] {
    return [...this.#resources.entries()].filter(([, b]) => b.size > 0).map(([r]) => r);
  }

  /**
   * Applies the mutations in one transaction. Each gets its own resourceVersion, written into
   * the object's metadata; the stored objects are returned. Nothing is visible to readers or
   * watchers until the transaction has committed.
   */
  commit(mutations: Mutation[]): JsonObject[] {
    let revision = this.#revision;
    const changes: ChangeRow[] = [];
    const stored: JsonObject[] = [];
    for (const mutation of mutations) {
      revision++;
      const object = structuredClone(mutation.object);
      metadataOf(object).resourceVersion = String(revision);
      const bucket = this.#resources.get(mutation.key.resource);
      const exists = bucket?.has(`${mutation.key.namespace}/${mutation.key.name}`) ?? false;
      const type = mutation.type === "delete" ? "DELETED" : exists ? "MODIFIED" : "ADDED";
      changes.push({ ...mutation.key, rv: revision, type, data: JSON.stringify(object) });
      stored.push(object);
    }
    this.#log.commit(changes, revision);
    // Keep the stored history about as long as the in-memory window, trimming now and then.
    if (Math.floor(revision / 1000) !== Math.floor(this.#revision / 1000)) {
      this.#log.trimHistoryBefore(revision - this.#historySize);
    }
    this.#revision = revision;
    for (const change of changes) {
      const bucket = this.#bucket(change.resource);
      const id = `${change.namespace}/${change.name}`;
      if (change.type === "DELETED") bucket.delete(id);
      else bucket.set(id, { rv: change.rv, data: change.data });
    }
    for (const change of changes) this.#history.record(change);
    return stored;
  }

  /**
   * Subscribes to changes after `fromRv` (replayed first), or only new ones when `fromRv` is
   * undefined. Throws 410 Expired when the history no longer reaches back that far.
   */
  watch(fromRv: number | undefined, listener: ChangeListener): () => void {
    if (fromRv !== undefined) {
      if (!this.#history.covers(fromRv, this.#revision)) {
        throw expired(
          `too old resource version: ${fromRv} (${this.#history.oldestRevision(this.#revision) - 1})`,
        );
      }
      for (const event of this.#history.since(fromRv)) listener(event);
    }
    return this.#history.subscribe(listener);
  }

  /** Changes committed from now on, for the server's own controllers. */
  onChange(listener: (event: ChangeEvent) => void): () => void {
    return this.#history.subscribe(listener);
  }

  close(): void {
    this.#log.close();
  }

  #bucket(resource: string): Map<string, Entry> {
    let bucket = this.#resources.get(resource);
    if (!bucket) {
      bucket = new Map();
      this.#resources.set(resource, bucket);
    }
    return bucket;
  }
}
