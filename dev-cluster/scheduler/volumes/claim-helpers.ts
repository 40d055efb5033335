import type { Frozen } from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim, Pod } from "../kinds.js";

/** Set by the scheduler on a WaitForFirstConsumer claim: the node the provisioner makes the volume for. */
export const ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";
/** Set by the PV controller once it has finished binding a claim to its volume. */
export const ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
/** Set on a volume whose claimRef a controller (or this scheduler) chose, not the user. */
export const ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
/** The class's provisioner that provisions nothing (statically created local volumes). */
export const NO_PROVISIONER = "kubernetes.io/no-provisioner";
/** The beta annotation still wins over spec.storageClassName, as in kube. */
const ANN_BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

export function claimClassName(claim: Frozen<PersistentVolumeClaim>): string {
  return claim.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS] ?? claim.spec?.storageClassName ?? "";
}

export function volumeClassName(volume: Frozen<PersistentVolume>): string {
  return volume.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS] ?? volume.spec?.storageClassName ?? "";
}

/** Fully bound as the binder counts it: a volume name and the PV controller's bind-completed mark. */
export function isClaimFullyBound(claim: Frozen<PersistentVolumeClaim>): boolean {
  return Boolean(claim.spec?.volumeName) && claim.metadata?.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

export function claimKeyOf(claim: Frozen<PersistentVolumeClaim>): string {
  return `${claim.metadata?.namespace ?? ""}/${claim.metadata?.name ?? ""}`;
}

/** IsVolumeBoundToClaim: the volume's claimRef names this claim (and its uid, when the ref has one). */
export function isVolumeBoundToClaim(
  volume: Frozen<PersistentVolume>,
  claim: Frozen<PersistentVolumeClaim>,
): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/** One claim a pod's volume names: its persistentVolumeClaim, or the claim of a generic ephemeral volume. */
export interface PodClaimRef {
  readonly name: string;
  /** A generic ephemeral volume's claim: `<pod>-<volume>`, made by the ephemeral volume controller. */
  readonly ephemeral: boolean;
}

export function podClaimRefs(pod: Frozen<Pod>): PodClaimRef[] {
  const refs: PodClaimRef[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    if (volume.persistentVolumeClaim)
      refs.push({ name: volume.persistentVolumeClaim.claimName, ephemeral: false });
    else if (volume.ephemeral)
      refs.push({ name: `${pod.metadata?.name ?? ""}-${volume.name}`, ephemeral: true });
  }
  return refs;
}
