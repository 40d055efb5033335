import {
  type Clock,
  type Frozen,
  jsonEqual,
  mutableCopy,
  type ResourceClient,
  wireTime,
} from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim } from "../kinds.js";
import { BIND_COMPLETED, BOUND_BY_CONTROLLER, hasAnnotation, YES } from "./storage-annotations.js";
import { isVolumeBoundToClaim } from "./volume-matching.js";

/**
 * The writes that bind a claim and a volume, in kube's order (bind()): the volume's claimRef,
 * the volume's phase, the claim's volumeName and annotations, the claim's status. Each write
 * carries the resourceVersion of the object it changes, so a volume another claim took meanwhile
 * answers Conflict and is never bound twice; a step left undone is finished by the next sync.
 */

export interface BindingClients {
  volumes: ResourceClient<PersistentVolume>;
  claims: ResourceClient<PersistentVolumeClaim>;
  clock: Clock;
}

type Volume = Frozen<PersistentVolume> | PersistentVolume;
type Claim = Frozen<PersistentVolumeClaim> | PersistentVolumeClaim;
export type VolumePhase = "Pending" | "Available" | "Bound" | "Released" | "Failed";
export type ClaimPhase = "Pending" | "Bound" | "Lost";

function withAnnotation<T extends { metadata?: { annotations?: Record<string, string> } }>(
  object: T,
  key: string,
): void {
  object.metadata = {
    ...object.metadata,
    annotations: { ...(object.metadata?.annotations ?? {}), [key]: YES },
  };
}

/** Sets the volume's phase (and message), stamping the transition time, when it differs. */
export async function updateVolumePhase(
  clients: BindingClients,
  volume: Volume,
  phase: VolumePhase,
  message = "",
): Promise<PersistentVolume> {
  if (volume.status?.phase === phase && (volume.status?.message ?? "") === message) {
    return mutableCopy<PersistentVolume>(volume);
  }
  const updated = mutableCopy<PersistentVolume>(volume);
  const status = { ...(updated.status ?? {}) };
  if (status.phase !== phase) status.lastPhaseTransitionTime = wireTime(clients.clock.now());
  status.phase = phase;
  if (message === "") delete status.message;
  else status.message = message;
  updated.status = status;
  return clients.volumes.updateStatus(updated);
}

/**
 * Sets the claim's phase; Bound copies the volume's access modes and capacity, the other phases
 * clear them (updateClaimStatus).
 */
export async function updateClaimPhase(
  clients: BindingClients,
  claim: Claim,
  phase: ClaimPhase,
  volume: Volume | undefined,
): Promise<PersistentVolumeClaim> {
  const status = { ...(claim.status ?? {}) };
  status.phase = phase;
  if (volume) {
    status.accessModes = [...(volume.spec?.accessModes ?? [])];
    status.capacity = { ...(volume.spec?.capacity ?? {}) };
  } else {
    delete status.accessModes;
    delete status.capacity;
  }
  if (jsonEqual(status, claim.status ?? {})) return mutableCopy<PersistentVolumeClaim>(claim);
  const updated = mutableCopy<PersistentVolumeClaim>(claim);
  updated.status = status as PersistentVolumeClaim["status"];
  return clients.claims.updateStatus(updated);
}

/** Points the volume's claimRef at the claim (uid included), marking a choice of the controller's. */
async function bindVolumeToClaim(
  clients: BindingClients,
  volume: Volume,
  claim: Claim,
): Promise<PersistentVolume> {
  const ref = volume.spec?.claimRef;
  const chosenHere = !isVolumeBoundToClaim(volume, claim);
  const refIsCurrent =
    ref?.name === claim.metadata?.name &&
    ref?.namespace === claim.metadata?.namespace &&
    ref?.uid === claim.metadata?.uid;
  const markChoice = chosenHere && !hasAnnotation(volume, BOUND_BY_CONTROLLER);
  if (refIsCurrent && !markChoice) return mutableCopy<PersistentVolume>(volume);
  const updated = mutableCopy<PersistentVolume>(volume);
  if (!refIsCurrent) {
    updated.spec = {
      ...updated.spec,
      claimRef: {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        namespace: claim.metadata?.namespace ?? "",
        name: claim.metadata?.name ?? "",
        uid: claim.metadata?.uid ?? "",
        resourceVersion: claim.metadata?.resourceVersion ?? "",
      },
    };
  }
  if (markChoice) withAnnotation(updated, BOUND_BY_CONTROLLER);
  return clients.volumes.update(updated);
}

/** Sets the claim's volumeName (marking the controller's choice) and bind-completed. */
async function bindClaimToVolume(
  clients: BindingClients,
  claim: Claim,
  volume: Volume,
): Promise<PersistentVolumeClaim> {
  const volumeName = volume.metadata?.name ?? "";
  const setName = claim.spec?.volumeName !== volumeName;
  if (!setName && hasAnnotation(claim, BIND_COMPLETED)) return mutableCopy<PersistentVolumeClaim>(claim);
  const updated = mutableCopy<PersistentVolumeClaim>(claim);
  if (setName) {
    updated.spec = { ...updated.spec, volumeName };
    if (!hasAnnotation(claim, BOUND_BY_CONTROLLER)) withAnnotation(updated, BOUND_BY_CONTROLLER);
  }
  withAnnotation(updated, BIND_COMPLETED);
  return clients.claims.update(updated);
}

/** kube's bind(): all four steps, each based on what the previous write returned. */
export async function bind(clients: BindingClients, volume: Volume, claim: Claim): Promise<void> {
  const boundVolume = await bindVolumeToClaim(clients, volume, claim);
  const volumeWithPhase = await updateVolumePhase(clients, boundVolume, "Bound");
  const boundClaim = await bindClaimToVolume(clients, claim, volumeWithPhase);
  await updateClaimPhase(clients, boundClaim, "Bound", volumeWithPhase);
}
