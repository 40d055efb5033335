import type { KubeObject } from "./kube-object.js";

/**
 * What the runtime needs to know about a kind to read, write and watch it. The type parameter
 * is carried only for the compiler: `ResourceKind<VirtualMachine>` makes every client and cache
 * call over it typed.
 */
export interface ResourceKind<T extends KubeObject = KubeObject> {
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The resource name in URLs, e.g. "virtualmachines". */
  readonly plural: string;
  readonly namespaced: boolean;
  /** Never set: ties the object type to the descriptor. */
  readonly objectType?: T;
}

/**
 * Describes a kind for the runtime. Only the names the runtime uses are kept, so a richer
 * description (api/'s kind definitions carry schemas and printer columns) can be passed as it is.
 */
export function defineKind<T extends KubeObject>(kind: Omit<ResourceKind<T>, "objectType">): ResourceKind<T> {
  const { group, version, kind: name, plural, namespaced } = kind;
  return Object.freeze({ group, version, kind: name, plural, namespaced });
}

export function apiVersionOf(kind: ResourceKind): string {
  return kind.group === "" ? kind.version : `${kind.group}/${kind.version}`;
}

/** A stable identity for one kind, used to share one informer per kind per process. */
export function kindId(kind: ResourceKind): string {
  return `${kind.plural}.${kind.version}.${kind.group}`;
}

/** The collection path: `/api/v1/namespaces/ns/pods` or `/apis/g/v/widgets` (all namespaces). */
export function collectionPath(kind: ResourceKind, namespace?: string): string {
  const root = kind.group === "" ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  if (kind.namespaced && namespace !== undefined && namespace !== "") {
    return `${root}/namespaces/${encodeURIComponent(namespace)}/${kind.plural}`;
  }
  return `${root}/${kind.plural}`;
}

export function objectPath(kind: ResourceKind, ref: ObjectRef, subresource?: string): string {
  if (kind.namespaced && !ref.namespace) {
    throw new Error(`${kind.kind} "${ref.name}" is namespaced: a namespace is required`);
  }
  const base = `${collectionPath(kind, ref.namespace)}/${encodeURIComponent(ref.name)}`;
  return subresource ? `${base}/${subresource}` : base;
}

/** Names one object; `namespace` is ignored for cluster-scoped kinds. */
export interface ObjectRef {
  namespace?: string;
  name: string;
}
