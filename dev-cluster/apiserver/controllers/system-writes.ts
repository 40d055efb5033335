import type { JsonObject } from "../json.js";
import { finalizersOf, isBeingDeleted, meta } from "../objects/object-meta.js";
import type { ObjectKey, ObjectStore } from "../storage/object-store.js";

/** Parses a storage key `<group>/<plural>` back into its parts. */
export function splitResource(resource: string): { group: string; plural: string } {
  const slash = resource.lastIndexOf("/");
  return { group: resource.slice(0, slash), plural: resource.slice(slash + 1) };
}

export function keyString(key: ObjectKey): string {
  return `${key.resource}|${key.namespace}|${key.name}`;
}

export function parseKeyString(text: string): ObjectKey {
  const [resource = "", namespace = "", name = ""] = text.split("|");
  return { resource, namespace, name };
}

/**
 * Removes one finalizer as the server's own controllers do, bypassing admission. An object being
 * deleted whose last finalizer goes is removed.
 */
export function removeFinalizer(store: ObjectStore, key: ObjectKey, finalizer: string): void {
  const current = store.get(key);
  if (!current || !finalizersOf(current).includes(finalizer)) return;
  const updated: JsonObject = structuredClone(current);
  const remaining = finalizersOf(current).filter((f) => f !== finalizer);
  if (remaining.length > 0) meta(updated).finalizers = remaining;
  else delete meta(updated).finalizers;
  const remove = remaining.length === 0 && isBeingDeleted(updated);
  store.commit([{ type: remove ? "delete" : "put", key, object: updated }]);
}
