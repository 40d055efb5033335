import type { Logger } from "pino";
import type { ResourceClient } from "../client/resource-client.js";
import type { BackoffOptions } from "../clock/backoff.js";
import { type Clock, systemClock } from "../clock/clock.js";
import { type LabelSelector, labelsMatch } from "../labels/label-selector.js";
import { deepFreeze, type Frozen, type KubeObject } from "../objects/kube-object.js";
import { objectKey, refKey } from "../objects/object-key.js";
import { apiVersionOf, type ObjectRef, type ResourceKind } from "../objects/resource-kind.js";
import { IndexedStore, type IndexFunction, namespaceIndex } from "./indexed-store.js";
import { type InformerMetrics, noInformerMetrics } from "./informer-metrics.js";
import { Reflector } from "./reflector.js";

export interface EventHandler<T> {
  onAdd?(object: Frozen<T>): void;
  onUpdate?(previous: Frozen<T>, current: Frozen<T>): void;
  /** The last state known: after a relist, a deletion we missed reports the cached object. */
  onDelete?(object: Frozen<T>): void;
}

export interface InformerOptions<T extends KubeObject> {
  client: ResourceClient<T>;
  log: Logger;
  clock?: Clock;
  /** Watch one namespace; default all. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  indexers?: Readonly<Record<string, IndexFunction<T>>>;
  /**
   * Applied to every object before it is cached, e.g. `stripManagedFields` (controllers rarely
   * read managedFields, and they are often the largest part of an object).
   */
  transform?: (object: T) => T;
  /** Every resyncMs, handlers get onUpdate(object, object) for every cached object (default never). */
  resyncMs?: number;
  backoff?: BackoffOptions;
  minWatchTimeoutSeconds?: number;
  healthyAfterMs?: number;
  /** List in pages of this size (default one request). */
  pageSize?: number;
  metrics?: InformerMetrics;
}

/**
 * One kind's cache, kept current by a list/watch loop, with event handlers and indexes
 * (client-go's SharedIndexInformer). Cached objects are deeply frozen: copy one
 * (`mutableCopy`) before changing it. Handlers run synchronously and should only enqueue keys;
 * one that throws is logged, never stops the informer.
 */
export class SharedInformer<T extends KubeObject> {
  readonly kind: ResourceKind<T>;
  readonly #options: InformerOptions<T>;
  readonly #store: IndexedStore<T>;
  readonly #handlers = new Set<EventHandler<T>>();
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #metrics: InformerMetrics;
  readonly #syncWaiters: (() => void)[] = [];
  #synced = false;
  #lastError: unknown;
  #abort: AbortController | undefined;
  #running: Promise<void> | undefined;
  #cancelResync: (() => void) | undefined;

  constructor(options: InformerOptions<T>) {
    this.kind = options.client.kind;
    this.#options = options;
    this.#store = new IndexedStore<T>(options.indexers);
    this.#log = options.log.child({ informer: this.kind.plural });
    this.#clock = options.clock ?? systemClock;
    this.#metrics = options.metrics ?? noInformerMetrics;
  }

  /** Starts the list/watch loop; calling it again does nothing. */
  start(): void {
    if (this.#abort) return;
    const abort = new AbortController();
    this.#abort = abort;
    const reflector = new Reflector<T>({
      ...this.#options,
      log: this.#log,
      sink: { replace: (items) => this.#replace(items), apply: (type, object) => this.#apply(type, object) },
      onError: (error) => {
        this.#lastError = error;
      },
    });
    this.#running = reflector.run(abort.signal).catch((error: unknown) => {
      // The loop catches every list/watch failure itself; reaching this is a bug, and says so.
      this.#log.fatal(
        { err: error },
        "the informer's list/watch loop crashed: the cache is no longer updated",
      );
      this.#lastError = error;
    });
    this.#scheduleResync();
  }

  async stop(): Promise<void> {
    this.#abort?.abort();
    this.#cancelResync?.();
    await this.#running;
    for (const waiter of this.#syncWaiters.splice(0)) waiter();
  }

  /** True once the first list is in the cache. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** Resolves true once synced, or false if `signal` aborts or the informer stops first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.#synced) return Promise.resolve(true);
    if (signal?.aborted || this.#abort?.signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        // A waiter released by the sync must not stay on a long-lived signal (the manager's).
        signal?.removeEventListener("abort", done);
        resolve(this.#synced);
      };
      this.#syncWaiters.push(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** The last list/watch failure, for diagnostics (the loop retries on its own). */
  get lastError(): unknown {
    return this.#lastError;
  }

  /**
   * Registers handlers; returns a function that removes them. Handlers added after the cache
   * filled get an onAdd for every cached object first, so they miss nothing.
   */
  addEventHandler(handler: EventHandler<T>): () => void {
    this.#handlers.add(handler);
    for (const object of this.#store.values()) this.#call("onAdd", () => handler.onAdd?.(object));
    return () => this.#handlers.delete(handler);
  }

  addIndexer(name: string, indexer: IndexFunction<T>): void {
    if (!this.#store.hasIndex(name)) this.#store.addIndexer(name, indexer);
  }

  get(ref: ObjectRef | string): Frozen<T> | undefined {
    return this.#store.get(typeof ref === "string" ? ref : refKey(ref));
  }

  /** Cached objects, optionally of one namespace and matching a label selector. */
  list(filter: { namespace?: string; labelSelector?: LabelSelector } = {}): Frozen<T>[] {
    const candidates =
      filter.namespace === undefined
        ? [...this.#store.values()]
        : this.#store.byIndex(namespaceIndex, filter.namespace);
    const selector = filter.labelSelector;
    if (!selector) return candidates;
    return candidates.filter((object) => labelsMatch(selector, object.metadata?.labels));
  }

  byIndex(name: string, value: string): Frozen<T>[] {
    return this.#store.byIndex(name, value);
  }

  keys(): string[] {
    return [...this.#store.keys()];
  }

  get size(): number {
    return this.#store.size;
  }

  #replace(items: T[]): void {
    const seen = new Set<string>();
    for (const item of items) {
      const object = this.#prepare(item);
      const key = objectKey(item);
      seen.add(key);
      const previous = this.#store.get(key);
      // Unchanged objects keep their cached instance: no event, no extra memory.
      if (previous && previous.metadata?.resourceVersion === object.metadata?.resourceVersion) continue;
      this.#store.set(key, object);
      this.#notify(previous, object);
    }
    for (const key of [...this.#store.keys()]) {
      if (seen.has(key)) continue;
      const gone = this.#store.delete(key) as Frozen<T>;
      this.#notifyDelete(gone);
    }
    this.#metrics.objects(this.#store.size);
    if (!this.#synced) {
      this.#synced = true;
      this.#log.debug({ objects: this.#store.size }, "cache synced");
      for (const waiter of this.#syncWaiters.splice(0)) waiter();
    }
  }

  #apply(type: "ADDED" | "MODIFIED" | "DELETED", item: T): void {
    const object = this.#prepare(item);
    const key = objectKey(item);
    if (type === "DELETED") {
      if (this.#store.delete(key)) this.#notifyDelete(object);
    } else {
      this.#notify(this.#store.set(key, object), object);
    }
    this.#metrics.objects(this.#store.size);
  }

  #prepare(item: T): Frozen<T> {
    // Items of built-in lists may omit their type; fill it so cached objects are self-describing.
    item.apiVersion ??= apiVersionOf(this.kind);
    item.kind ??= this.kind.kind;
    return deepFreeze(this.#options.transform ? this.#options.transform(item) : item);
  }

  #notify(previous: Frozen<T> | undefined, current: Frozen<T>): void {
    for (const handler of this.#handlers) {
      if (previous) this.#call("onUpdate", () => handler.onUpdate?.(previous, current));
      else this.#call("onAdd", () => handler.onAdd?.(current));
    }
  }

  #notifyDelete(object: Frozen<T>): void {
    for (const handler of this.#handlers) this.#call("onDelete", () => handler.onDelete?.(object));
  }

  #call(what: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.#log.error({ err: error, handler: what }, "informer event handler threw");
    }
  }

  #scheduleResync(): void {
    const period = this.#options.resyncMs;
    if (!period || period <= 0 || this.#abort?.signal.aborted) return;
    this.#cancelResync = this.#clock.schedule(() => {
      if (this.#synced) {
        for (const object of this.#store.values()) {
          for (const handler of this.#handlers)
            this.#call("onUpdate", () => handler.onUpdate?.(object, object));
        }
      }
      this.#scheduleResync();
    }, period);
  }
}
