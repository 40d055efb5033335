// virt-controller's share of `vmi.status.volumeStatus` for hotplugged volumes (KubeVirt's
// updateVolumeStatus, its phases, reasons and messages): until the disk is in the domain, the entry
// says where the claim and the attachment pod are: Pending (no claim, or not bound), Bound, then
// AttachedToNode once the pod runs. From there virt-handler takes over (Ready, at its target) and
// this never overwrites what it wrote; nor does it touch the entry of a volume that left the spec,
// whose removal is virt-handler's (once QEMU let go of the disk).
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { type ClaimVolume, claimVolumesOf, type VirtualMachineInstanceStatus } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { Pod, VirtualMachineInstance } from "../kinds.js";
import { CLAIM_FAILURE_REASONS } from "./claim-check.js";
import type { SyncFailure } from "./vmi-lifecycle.js";

export type VolumeStatus = NonNullable<VirtualMachineInstanceStatus["volumeStatus"]>[number];
type AnyPod = Frozen<Pod> | Pod;

/** The phases virt-controller writes; any other one (Ready, ...) is virt-handler's to change. */
export const CONTROLLER_PHASES: ReadonlySet<string> = new Set(["Pending", "Bound", "AttachedToNode"]);

/** KubeVirt's reasons (pkg/controller): a claim not ready, an attachment pod made. */
const PVC_NOT_READY = "PVCNotReady";
const SUCCESSFUL_CREATE = "SuccessfulCreate";

export interface HotplugStatusInput {
  readonly vmi: Frozen<VirtualMachineInstance>;
  /** The attachment pod holding each volume now (by VMI volume name), if any. */
  readonly podFor: ReadonlyMap<string, AnyPod>;
  /** Claims by name, in the VMI's namespace. */
  readonly claim: (name: string) => Frozen<IPersistentVolumeClaim> | undefined;
  /** Why a volume's pod cannot be made yet (by VMI volume name). */
  readonly blocked: ReadonlyMap<string, SyncFailure>;
}

/** The VMI's volumeStatus with an up-to-date entry for each hotplugged volume still on its way in. */
export function hotplugVolumeStatus(input: HotplugStatusInput): VolumeStatus[] | undefined {
  const current = input.vmi.status?.volumeStatus ?? [];
  const entries = current.map((entry) => structuredClone(entry) as VolumeStatus);
  const hotplugged = claimVolumesOf(input.vmi.spec).filter((volume) => volume.hotpluggable);
  for (const volume of hotplugged) {
    const index = entries.findIndex((entry) => entry.name === volume.volumeName);
    const existing = index >= 0 ? entries[index] : undefined;
    if (existing?.phase !== undefined && !CONTROLLER_PHASES.has(existing.phase)) continue;
    const entry = entryFor(volume, existing, input);
    if (index >= 0) entries[index] = entry;
    else entries.push(entry);
  }
  return entries.length > 0 ? entries : undefined;
}

function entryFor(
  volume: ClaimVolume,
  existing: VolumeStatus | undefined,
  input: HotplugStatusInput,
): VolumeStatus {
  const pod = input.podFor.get(volume.volumeName);
  const claim = input.claim(volume.claimName);
  const running = pod?.status?.phase === "Running";
  const { phase, reason, message } = running
    ? {
        phase: "AttachedToNode",
        reason: SUCCESSFUL_CREATE,
        message: `Created hotplug attachment pod ${pod?.metadata?.name ?? ""}, for volume ${volume.volumeName}`,
      }
    : claimState(volume, claim, input.blocked.get(volume.volumeName));
  const info = claim ? claimInfo(claim) : undefined;
  return {
    name: volume.volumeName,
    // virt-handler's to say (the domain's target); empty until then, as in KubeVirt's JSON.
    target: existing?.target ?? "",
    phase,
    reason,
    message,
    hotplugVolume: {
      ...(pod?.metadata?.name ? { attachPodName: pod.metadata.name } : {}),
      // Only a running pod's uid: virt-handler takes the disk from that pod's mount.
      ...(running && pod?.metadata?.uid ? { attachPodUID: pod.metadata.uid } : {}),
    },
    ...(info ? { persistentVolumeClaimInfo: info } : {}),
  };
}

/** Where the claim is (KubeVirt's getVolumePhaseMessageReason), or why the pod waits. */
function claimState(
  volume: ClaimVolume,
  claim: Frozen<IPersistentVolumeClaim> | undefined,
  blocked: SyncFailure | undefined,
): { phase: string; reason: string; message: string } {
  if (claim === undefined)
    return {
      phase: "Pending",
      reason: CLAIM_FAILURE_REASONS.notFound,
      message: `PVC ${volume.claimName} not found`,
    };
  const claimPhase = claim.status?.phase ?? "Pending";
  const phase = claimPhase === "Bound" ? "Bound" : "Pending";
  if (blocked) return { phase, reason: blocked.reason, message: blocked.message };
  // KubeVirt's words: its constants' names (ClaimPending), not the API's values.
  const words = claimPhase === "Bound" ? "Bound" : claimPhase === "Lost" ? "Lost" : "ClaimPending";
  return { phase, reason: PVC_NOT_READY, message: `PVC is in phase ${words}` };
}

function claimInfo(claim: Frozen<IPersistentVolumeClaim>): VolumeStatus["persistentVolumeClaimInfo"] {
  const spec = claim.spec;
  return {
    claimName: claim.metadata?.name ?? "",
    ...(spec?.accessModes ? { accessModes: [...spec.accessModes] } : {}),
    ...(spec?.volumeMode ? { volumeMode: spec.volumeMode } : {}),
    ...(claim.status?.capacity ? { capacity: { ...claim.status.capacity } } : {}),
    ...(spec?.resources?.requests ? { requests: { ...spec.resources.requests } } : {}),
  } as VolumeStatus["persistentVolumeClaimInfo"];
}
