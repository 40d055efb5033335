import type { ObjectRef } from "./resource-kind.js";

/**
 * Keys are what work queues carry and caches are indexed by: `namespace/name`, or `name` for
 * cluster-scoped objects (client-go's MetaNamespaceKeyFunc).
 */
export function objectKey(object: {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
}): string {
  const name = object.metadata?.name;
  if (!name) throw new Error("an object without metadata.name has no key");
  return refKey({ name, namespace: object.metadata?.namespace });
}

export function refKey(ref: { namespace?: string | undefined; name: string }): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

export function parseKey(key: string): ObjectRef {
  const slash = key.indexOf("/");
  if (slash < 0) return { name: key };
  if (key.indexOf("/", slash + 1) >= 0) throw new Error(`invalid object key "${key}": more than one "/"`);
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
