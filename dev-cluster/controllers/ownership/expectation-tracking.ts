import {
  controllerOwnerKey,
  type Expectations,
  type KubeObject,
  objectKey,
  type ResourceKind,
  type SharedInformer,
} from "../../../runtime/index.js";

/**
 * Feeds `expectations` from the children's informer: a child that appears is a creation its
 * controller observed; a child that disappears, or gets a deletionTimestamp (a pod on a node
 * ends gracefully and stays a while), is a deletion observed. Returns the function that stops it.
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
