/**
 * The shape every Kubernetes object shares, as plain JSON (timestamps stay RFC 3339 strings).
 * The runtime knows no kind: callers describe theirs with a {@link ResourceKind} and a type.
 */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: unknown[];
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/**
 * An object type whose own metadata type differs from ours (api/'s schema-derived types allow a
 * null creationTimestamp, as the CRD schema does) with the metadata the API server returns. Both
 * describe the same JSON: such an object still passes to functions typed with the original.
 */
export type WithObjectMeta<T> = Omit<T, "metadata"> & { metadata?: ObjectMeta };

/** The metav1.Status body the API server answers errors (and some deletes) with. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface Status {
  kind: "Status";
  apiVersion?: string;
  status?: "Success" | "Failure";
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: number;
  };
}

/** A deep read-only view: what caches hand out, so nobody mutates a shared object by accident. */
export type Frozen<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer E>
    ? ReadonlyArray<Frozen<E>>
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

/** Freezes a parsed JSON value in place, all the way down, and returns it. */
export function deepFreeze<T>(value: T): Frozen<T> {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value as Frozen<T>;
}

/** A private, mutable copy of a cached object: the way to start a change. */
export function mutableCopy<T>(value: Frozen<T> | T): T {
  return structuredClone(value) as T;
}
