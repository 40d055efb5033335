import type { Frozen, KubeObject } from "../objects/kube-object.js";

/** Index values of an object, e.g. its namespace, or the value of one label. */
export type IndexFunction<T> = (object: Frozen<T>) => readonly string[];

export const namespaceIndex = "namespace";

/** Indexes objects by namespace (cluster-scoped objects under ""). */
export function byNamespace<T extends KubeObject>(object: Frozen<T>): readonly string[] {
  return [object.metadata?.namespace ?? ""];
}

/** Indexes objects by the value of one label; objects without it are not indexed. */
export function byLabel<T extends KubeObject>(labelKey: string): IndexFunction<T> {
  return (object) => {
    const value = object.metadata?.labels?.[labelKey];
    return value === undefined ? [] : [value];
  };
}

/** Indexes objects by the uid of their controlling owner (what replica-set-like controllers look up). */
export function byControllerUid<T extends KubeObject>(object: Frozen<T>): readonly string[] {
  const owner = object.metadata?.ownerReferences?.find((reference) => reference.controller);
  return owner ? [owner.uid] : [];
}

/** A cache transform that drops metadata.managedFields (controller-runtime's TransformStripManagedFields). */
export function stripManagedFields<T extends KubeObject>(object: T): T {
  if (object.metadata?.managedFields) delete object.metadata.managedFields;
  return object;
}

/**
 * The informer's cache: frozen objects by key, plus named indexes kept up to date on every
 * change (client-go's thread-safe store with indexers).
 */
export class IndexedStore<T extends KubeObject> {
  readonly #objects = new Map<string, Frozen<T>>();
  readonly #indexers = new Map<string, IndexFunction<T>>();
  /** index name → index value → keys */
  readonly #indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Readonly<Record<string, IndexFunction<T>>> = {}) {
    this.addIndexer(namespaceIndex, byNamespace);
    for (const [name, indexer] of Object.entries(indexers)) this.addIndexer(name, indexer);
  }

  /** Adds an index and builds it over what is cached; adding the same name twice is an error. */
  addIndexer(name: string, indexer: IndexFunction<T>): void {
    if (this.#indexers.has(name)) throw new Error(`an index named "${name}" already exists`);
    this.#indexers.set(name, indexer);
    const index = new Map<string, Set<string>>();
    this.#indices.set(name, index);
    for (const [key, object] of this.#objects) addToIndex(index, indexer(object), key);
  }

  hasIndex(name: string): boolean {
    return this.#indexers.has(name);
  }

  get(key: string): Frozen<T> | undefined {
    return this.#objects.get(key);
  }

  get size(): number {
    return this.#objects.size;
  }

  keys(): IterableIterator<string> {
    return this.#objects.keys();
  }

  values(): IterableIterator<Frozen<T>> {
    return this.#objects.values();
  }

  /** Stores `object` under `key`; returns what it replaced. */
  set(key: string, object: Frozen<T>): Frozen<T> | undefined {
    const previous = this.#objects.get(key);
    this.#objects.set(key, object);
    for (const [name, indexer] of this.#indexers) {
      const index = this.#indices.get(name) as Map<string, Set<string>>;
      if (previous) removeFromIndex(index, indexer(previous), key);
      addToIndex(index, indexer(object), key);
    }
    return previous;
  }

  delete(key: string): Frozen<T> | undefined {
    const previous = this.#objects.get(key);
    if (!previous) return undefined;
    this.#objects.delete(key);
    for (const [name, indexer] of this.#indexers) {
      removeFromIndex(this.#indices.get(name) as Map<string, Set<string>>, indexer(previous), key);
    }
    return previous;
  }

  /** Objects whose index `name` holds `value`. */
  byIndex(name: string, value: string): Frozen<T>[] {
    const index = this.#indices.get(name);
    if (!index) throw new Error(`no index named "${name}"`);
    const keys = index.get(value);
    if (!keys) return [];
    return [...keys].map((key) => this.#objects.get(key) as Frozen<T>);
  }

  /** The values index `name` currently holds (e.g. all namespaces with objects). */
  indexValues(name: string): string[] {
    const index = this.#indices.get(name);
    if (!index) throw new Error(`no index named "${name}"`);
    return [...index.keys()];
  }
}

function addToIndex(index: Map<string, Set<string>>, values: readonly string[], key: string): void {
  for (const value of values) {
    let keys = index.get(value);
    if (!keys) {
      keys = new Set();
      index.set(value, keys);
    }
    keys.add(key);
  }
}

function removeFromIndex(index: Map<string, Set<string>>, values: readonly string[], key: string): void {
  for (const value of values) {
    const keys = index.get(value);
    if (!keys) continue;
    keys.delete(key);
    if (keys.size === 0) index.delete(value);
  }
}
