import {
  apiVersionOf,
  byControllerUid,
  type Frozen,
  type KubeObject,
  type OwnerReference,
  type ResourceKind,
  type SharedInformer,
} from "../../../runtime/index.js";

/** The owner reference a controller puts on what it creates: controller and blocking foreground deletion. */
export function controllerRefTo(owner: Frozen<KubeObject>, kind: ResourceKind): OwnerReference {
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    name: owner.metadata?.name ?? "",
    uid: owner.metadata?.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The reference to the object's controller, if it has one. */
export function controllerOf(object: Frozen<KubeObject>): Frozen<OwnerReference> | undefined {
  return object.metadata?.ownerReferences?.find((reference) => reference.controller === true);
}

export function isControlledBy(object: Frozen<KubeObject>, owner: Frozen<KubeObject>): boolean {
  const uid = owner.metadata?.uid;
  return uid !== undefined && controllerOf(object)?.uid === uid;
}

/** Index of children by their controller's uid (shared by every controller that indexes pods). */
export const controllerUidIndex = "controller-uid";
/** Index of objects that have no controller, by namespace: candidates for adoption. */
export const orphanIndex = "orphans-by-namespace";

export function orphansByNamespace(object: Frozen<KubeObject>): readonly string[] {
  return controllerOf(object) ? [] : [object.metadata?.namespace ?? ""];
}

/** The indexers to request on an informer of children. */
export const ownershipIndexers = {
  [controllerUidIndex]: byControllerUid,
  [orphanIndex]: orphansByNamespace,
} as const;

/** What `owner` may claim: the children it controls and the orphans of its namespace. */
export function claimCandidates<T extends KubeObject>(
  children: SharedInformer<T>,
  owner: Frozen<KubeObject>,
): Frozen<T>[] {
  return [
    ...children.byIndex(controllerUidIndex, owner.metadata?.uid ?? ""),
    ...children.byIndex(orphanIndex, owner.metadata?.namespace ?? ""),
  ];
}
