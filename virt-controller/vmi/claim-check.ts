// Whether a Pending VMI's claims let its launcher pod be made: each claim must exist (KubeVirt's
// FailedPvcNotFound: the VMI waits, and is looked at again when the claim appears), and a
// ReadWriteOnce claim is the disk of one VM at a time. Kubernetes lets two pods of one node share a
// ReadWriteOnce claim; two guests writing one raw disk would corrupt it, so a second VMI on a claim
// another VMI's launcher pod holds waits, saying which (FailedPvcInUse), until the first is gone.
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import {
  claimVolumesOf,
  LABELS,
  type StoredDataVolume,
  type VirtualMachineInstanceSpec,
} from "../../api/index.js";
import type { Frozen, SharedInformer } from "../../runtime/index.js";
import type { Pod, VirtualMachineInstance } from "../kinds.js";
import { isFinal } from "../vmi-phase.js";
import type { SyncFailure } from "./vmi-lifecycle.js";

export const CLAIM_FAILURE_REASONS = {
  notFound: "FailedPvcNotFound",
  inUse: "FailedPvcInUse",
} as const;

/** KubeVirt's VMI condition while a DataVolume it runs on is not filled yet. */
export const DATA_VOLUMES_READY = {
  type: "DataVolumesReady",
  notReady: "NotAllDVsReady",
  ready: "AllDVsReady",
};

/** CDI phases in which a DataVolume's claim may be used (KubeVirt's rule). */
const USABLE_DATA_VOLUME_PHASES = new Set(["Succeeded", "WaitForFirstConsumer", "PendingPopulation"]);

/** The index of the claim informer and of launcher pods: `<namespace>/<claim name>`. */
export const BY_CLAIM = "claim";

export function claimKeysOfPod(pod: Frozen<Pod>): string[] {
  const namespace = pod.metadata?.namespace ?? "";
  return (pod.spec?.volumes ?? []).flatMap((volume) =>
    volume.persistentVolumeClaim ? [`${namespace}/${volume.persistentVolumeClaim.claimName}`] : [],
  );
}

export interface ClaimCheckDeps {
  readonly claims: Pick<SharedInformer<IPersistentVolumeClaim>, "get">;
  /** Launcher pods, indexed by BY_CLAIM. */
  readonly pods: Pick<SharedInformer<Pod>, "byIndex">;
  readonly vmis: Pick<SharedInformer<VirtualMachineInstance>, "get">;
  readonly dataVolumes: Pick<SharedInformer<StoredDataVolume>, "get">;
}

/**
 * The claims handed to VMIs whose launcher pods the pod cache may not show yet. Checking and
 * reserving happen in one synchronous step, so two VMIs reconciled side by side cannot both take a
 * claim; a reservation lapses once its VMI is gone or final (the pod cache knows the rest).
 */
export class ClaimReservations {
  readonly #holders = new Map<string, { uid: string; vmiKey: string }>();

  /** The VMI (`namespace/name`) holding `claimKey` other than `uid`, if any still does. */
  holder(claimKey: string, uid: string, vmis: ClaimCheckDeps["vmis"]): string | undefined {
    const held = this.#holders.get(claimKey);
    if (held === undefined || held.uid === uid) return undefined;
    const vmi = vmis.get(held.vmiKey);
    if (vmi === undefined || vmi.metadata?.uid !== held.uid || isFinal(vmi)) {
      this.#holders.delete(claimKey);
      return undefined;
    }
    return held.vmiKey;
  }

  reserve(claimKey: string, uid: string, vmiKey: string): void {
    this.#holders.set(claimKey, { uid, vmiKey });
  }

  release(uid: string): void {
    for (const [key, held] of this.#holders) if (held.uid === uid) this.#holders.delete(key);
  }
}

/**
 * Undefined when the launcher pod may be made, and then the VMI's exclusive claims are reserved
 * for it; otherwise why not (the VMI's Synchronized=False reason and message).
 */
export function checkAndReserveClaims(
  vmi: Frozen<VirtualMachineInstance>,
  spec: VirtualMachineInstanceSpec,
  deps: ClaimCheckDeps,
  reservations: ClaimReservations,
): SyncFailure | undefined {
  const namespace = vmi.metadata?.namespace ?? "";
  const uid = vmi.metadata?.uid ?? "";
  const vmiKey = `${namespace}/${vmi.metadata?.name ?? ""}`;
  const unfilled = (spec.volumes ?? []).flatMap((volume) => {
    if (!volume.dataVolume) return [];
    const dv = deps.dataVolumes.get(`${namespace}/${volume.dataVolume.name}`);
    return dv !== undefined && !USABLE_DATA_VOLUME_PHASES.has(dv.status?.phase ?? "")
      ? [volume.dataVolume.name]
      : [];
  });
  if (unfilled.length > 0) {
    return {
      conditionType: DATA_VOLUMES_READY.type,
      reason: DATA_VOLUMES_READY.notReady,
      message: `Not all of the VMI's DVs are ready: ${unfilled.join(", ")}`,
    };
  }
  const exclusive: string[] = [];
  for (const { claimName } of claimVolumesOf(spec)) {
    const claimKey = `${namespace}/${claimName}`;
    const claim = deps.claims.get(claimKey);
    if (claim === undefined) {
      return {
        reason: CLAIM_FAILURE_REASONS.notFound,
        message: `PVC ${claimKey} does not exist, waiting for it to appear`,
      };
    }
    if (!isExclusive(claim)) continue;
    const holder = holderOf(claimKey, uid, deps) ?? reservations.holder(claimKey, uid, deps.vmis);
    if (holder !== undefined) {
      return {
        reason: CLAIM_FAILURE_REASONS.inUse,
        message: `PVC ${claimKey} is ReadWriteOnce and in use by VMI ${holder}: a VM waits until it is free`,
      };
    }
    exclusive.push(claimKey);
  }
  for (const claimKey of exclusive) reservations.reserve(claimKey, uid, vmiKey);
  return undefined;
}

/** A claim no other access mode shares (ReadWriteOnce, ReadWriteOncePod). */
function isExclusive(claim: Frozen<IPersistentVolumeClaim>): boolean {
  const modes = claim.status?.accessModes ?? claim.spec?.accessModes ?? [];
  return !modes.includes("ReadWriteMany") && !modes.includes("ReadOnlyMany");
}

/** Another VMI whose launcher pod or attachment pod (not finished) mounts the claim. */
function holderOf(claimKey: string, uid: string, deps: ClaimCheckDeps): string | undefined {
  for (const pod of deps.pods.byIndex(BY_CLAIM, claimKey)) {
    const owner = pod.metadata?.labels?.[LABELS.createdBy] ?? owningVmiUid(pod);
    if (owner === undefined || owner === uid) continue;
    if (pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed") continue;
    const vmiName = pod.metadata?.ownerReferences?.find((ref) => ref.kind === "VirtualMachineInstance")?.name;
    return `${pod.metadata?.namespace ?? ""}/${vmiName ?? pod.metadata?.name ?? ""}`;
  }
  return undefined;
}

/** An attachment pod has no created-by label (virt-handler takes that for the launcher pod): its owner says. */
function owningVmiUid(pod: Frozen<Pod>): string | undefined {
  return pod.metadata?.ownerReferences?.find((ref) => ref.controller && ref.kind === "VirtualMachineInstance")
    ?.uid;
}

/**
 * Why a hotplugged volume's claim cannot be attached to the VMI now, or undefined when it can: the
 * claim must exist, a DataVolume's be filled, and a ReadWriteOnce claim be free of other VMIs'
 * pods (as for the launcher pod). Nothing is reserved: the attachment pod itself holds it next time.
 */
export function attachBlocker(
  vmi: Frozen<VirtualMachineInstance>,
  volume: { readonly claimName: string; readonly dataVolume: boolean },
  deps: ClaimCheckDeps,
  reservations: ClaimReservations,
): SyncFailure | undefined {
  const namespace = vmi.metadata?.namespace ?? "";
  const uid = vmi.metadata?.uid ?? "";
  const claimKey = `${namespace}/${volume.claimName}`;
  if (volume.dataVolume) {
    const dv = deps.dataVolumes.get(claimKey);
    if (dv !== undefined && !USABLE_DATA_VOLUME_PHASES.has(dv.status?.phase ?? "")) {
      return {
        reason: DATA_VOLUMES_READY.notReady,
        message: `DataVolume ${claimKey} is not ready: ${dv.status?.phase ?? "no phase yet"}`,
      };
    }
  }
  const claim = deps.claims.get(claimKey);
  if (claim === undefined)
    return { reason: CLAIM_FAILURE_REASONS.notFound, message: `PVC ${volume.claimName} not found` };
  if (!isExclusive(claim)) return undefined;
  const holder = holderOf(claimKey, uid, deps) ?? reservations.holder(claimKey, uid, deps.vmis);
  return holder === undefined
    ? undefined
    : {
        reason: CLAIM_FAILURE_REASONS.inUse,
        message: `PVC ${claimKey} is ReadWriteOnce and in use by VMI ${holder}`,
      };
}
