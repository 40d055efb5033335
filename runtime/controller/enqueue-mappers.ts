import type { Frozen, KubeObject } from "../objects/kube-object.js";
import { objectKey, refKey } from "../objects/object-key.js";
import { apiVersionOf, type ResourceKind } from "../objects/resource-kind.js";

/** Maps an object that changed to the keys of the objects to reconcile. */
export type KeyMapper<T extends KubeObject> = (object: Frozen<T>) => readonly string[];

/** The object itself (the default). */
export function ownKey<T extends KubeObject>(object: Frozen<T>): readonly string[] {
  return [objectKey(object)];
}

/**
 * The object's controlling owner of `ownerKind`, for controllers that watch their children
 * (a VMI's launcher pod enqueues the VMI). Owners are in the child's namespace.
 */
export function controllerOwnerKey<T extends KubeObject>(ownerKind: ResourceKind): KeyMapper<T> {
  const apiVersion = apiVersionOf(ownerKind);
  return (object) => {
    const owner = object.metadata?.ownerReferences?.find(
      (reference) =>
        reference.controller && reference.kind === ownerKind.kind && reference.apiVersion === apiVersion,
    );
    if (!owner) return [];
    return [
      refKey({ name: owner.name, namespace: ownerKind.namespaced ? object.metadata?.namespace : undefined }),
    ];
  };
}
