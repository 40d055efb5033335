import type { Frozen } from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from "../kinds.js";
import { claimClassName, isClaimFullyBound, podClaimRefs, volumeClassName } from "./claim-helpers.js";

/** What the scheduler reads of the storage objects: the informers, with its own pending writes on top. */
export interface VolumeLookup {
  claim(namespace: string, name: string): Frozen<PersistentVolumeClaim> | undefined;
  volume(name: string): Frozen<PersistentVolume> | undefined;
  volumes(): readonly Frozen<PersistentVolume>[];
  storageClass(name: string): Frozen<StorageClass> | undefined;
}

export const REASON_UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims";

/** VolumeBinding's PreFilter result (its cycle state). */
export type PodVolumeClaims =
  /** The pod names no claim: the plugin is skipped. */
  | { readonly kind: "none" }
  /** UnschedulableAndUnresolvable for every node, with kube's words. */
  | { readonly kind: "rejected"; readonly message: string }
  | {
      readonly kind: "claims";
      /** Claims the PV controller has finished binding: their volume's node affinity decides. */
      readonly bound: readonly Frozen<PersistentVolumeClaim>[];
      /** Unbound claims of WaitForFirstConsumer classes: bound or provisioned for the chosen node. */
      readonly delayed: readonly Frozen<PersistentVolumeClaim>[];
      /** The volumes of each delayed claim's class, as listed once for this cycle. */
      readonly volumesByClass: ReadonlyMap<string, readonly Frozen<PersistentVolume>[]>;
    };

/** metav1.IsControlledBy: the claim's controller owner reference is this pod. */
function controlledBy(claim: Frozen<PersistentVolumeClaim>, pod: Frozen<Pod>): boolean {
  return (claim.metadata?.ownerReferences ?? []).some(
    (owner) => owner.controller === true && owner.uid === pod.metadata?.uid,
  );
}

/** IsDelayBindingMode: a class that is missing, or has no mode, binds immediately. */
function delaysBinding(claim: Frozen<PersistentVolumeClaim>, lookup: VolumeLookup): boolean {
  const className = claimClassName(claim);
  if (className === "") return false;
  return lookup.storageClass(className)?.volumeBindingMode === "WaitForFirstConsumer";
}

/** podHasPVCs' checks on one claim: the first problem, in kube's words. */
function claimProblem(
  pod: Frozen<Pod>,
  ref: { name: string; ephemeral: boolean },
  claim: Frozen<PersistentVolumeClaim> | undefined,
): string | undefined {
  if (!claim) {
    return ref.ephemeral
      ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${ref.name}"`
      : `persistentvolumeclaim "${ref.name}" not found`;
  }
  if (claim.status?.phase === "Lost") {
    return `persistentvolumeclaim "${ref.name}" bound to non-existent persistentvolume "${claim.spec?.volumeName ?? ""}"`;
  }
  if (claim.metadata?.deletionTimestamp) return `persistentvolumeclaim "${ref.name}" is being deleted`;
  if (ref.ephemeral && !controlledBy(claim, pod)) {
    const namespace = pod.metadata?.namespace ?? "";
    return `PVC ${namespace}/${ref.name} was not created for pod ${namespace}/${pod.metadata?.name ?? ""} (pod is not owner)`;
  }
  return undefined;
}

/**
 * VolumeBinding's PreFilter: every claim the pod's volumes name must exist, not be Lost nor being
 * deleted; claims are then split into bound (volumeName plus bind-completed), unbound of a
 * WaitForFirstConsumer class (decided per node by the Filter), and unbound immediate ones (also
 * claims pre-bound by volumeName the PV controller has not finished), which only the PV
 * controller can help.
 */
export function podVolumeClaims(pod: Frozen<Pod>, lookup: VolumeLookup): PodVolumeClaims {
  const refs = podClaimRefs(pod);
  if (refs.length === 0) return { kind: "none" };
  const namespace = pod.metadata?.namespace ?? "";
  const claims: Frozen<PersistentVolumeClaim>[] = [];
  for (const ref of refs) {
    const claim = lookup.claim(namespace, ref.name);
    const problem = claimProblem(pod, ref, claim);
    if (problem !== undefined) return { kind: "rejected", message: problem };
    if (claim) claims.push(claim);
  }
  const bound: Frozen<PersistentVolumeClaim>[] = [];
  const delayed: Frozen<PersistentVolumeClaim>[] = [];
  let unboundImmediate = false;
  for (const claim of claims) {
    if (isClaimFullyBound(claim)) bound.push(claim);
    else if (delaysBinding(claim, lookup) && !claim.spec?.volumeName) delayed.push(claim);
    else unboundImmediate = true;
  }
  if (unboundImmediate) return { kind: "rejected", message: REASON_UNBOUND_IMMEDIATE };
  const volumesByClass = new Map<string, Frozen<PersistentVolume>[]>();
  if (delayed.length > 0) {
    const all = lookup.volumes();
    for (const claim of delayed) {
      const className = claimClassName(claim);
      if (volumesByClass.has(className)) continue;
      volumesByClass.set(
        className,
        all.filter((volume) => volumeClassName(volume) === className),
      );
    }
  }
  return { kind: "claims", bound, delayed, volumesByClass };
}
