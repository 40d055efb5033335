import type { SharedInformer } from "../informer/shared-informer.js";
import type { KubeObject } from "../objects/kube-object.js";
import { objectKey } from "../objects/object-key.js";
import type { ResourceKind } from "../objects/resource-kind.js";
import { controllerOwnerKey } from "./enqueue-mappers.js";
import type { Expectations } from "./expectations.js";

/**
 * Feeds `expectations` from the children's informer: a child that appears is a creation its
 * controller observed; a child that disappears, or gets a deletionTimestamp (a pod on a node
 * ends gracefully and stays a while), is a deletion observed (one the owner asked for with
 * `expectDeletionsOf`; others count for nothing). Returns the function that stops it.
 */
export function trackChildExpectations<T extends KubeObject>(
  children: SharedInformer<T>,
  ownerKind: ResourceKind,
  expectations: Expectations,
): () => void {
  const ownerKeys = controllerOwnerKey<T>(ownerKind);
  return children.addEventHandler({
    onAdd: (child) => {
      for (const key of ownerKeys(child)) expectations.creationObserved(key);
    },
    onUpdate: (previous, current) => {
      if (previous.metadata?.deletionTimestamp || !current.metadata?.deletionTimestamp) return;
      for (const key of ownerKeys(current)) expectations.deletionObservedOf(key, objectKey(current));
    },
    onDelete: (child) => {
      for (const key of ownerKeys(child)) expectations.deletionObservedOf(key, objectKey(child));
    },
  });
}
