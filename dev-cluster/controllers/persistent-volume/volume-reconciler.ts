import {
  type EventRecorder,
  type Frozen,
  isNotFound,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim } from "../kinds.js";
import { BOUND_BY_CONTROLLER, hasAnnotation, PROVISIONED_BY } from "./storage-annotations.js";
import { type BindingClients, updateVolumePhase } from "./volume-binding.js";
import { volumeModesMismatch } from "./volume-matching.js";

export interface VolumeReconcilerDeps {
  volumes: SharedInformer<PersistentVolume>;
  claims: SharedInformer<PersistentVolumeClaim>;
  clients: BindingClients;
  events: EventRecorder;
}

type Volume = Frozen<PersistentVolume> | PersistentVolume;
type Claim = Frozen<PersistentVolumeClaim> | PersistentVolumeClaim;

/**
 * One sync of one volume (kube's syncVolume): Available while unclaimed or only pre-bound,
 * Bound once its claim names it, Released when its claim is gone, then reclaimed by its policy:
 * Retain keeps it, Delete is left to the external provisioner that made it (and fails without
 * one), Recycle is not supported.
 */
export class VolumeReconciler {
  readonly #deps: VolumeReconcilerDeps;

  constructor(deps: VolumeReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const volume = this.#deps.volumes.get(request.key);
    if (!volume) return {};
    await unlessStale(() => this.#sync(volume), request.log, "volume sync");
    return {};
  }

  async #sync(volume: Frozen<PersistentVolume>): Promise<void> {
    const { clients, events } = this.#deps;
    const ref = volume.spec?.claimRef;
    // Unclaimed, or reserved for a claim that has not bound to it yet: the claim's sync binds.
    if (!ref?.uid) {
      await updateVolumePhase(clients, volume, "Available");
      return;
    }
    const claim = await this.#claimOf(volume);
    const name = volume.metadata?.name ?? "";
    if (!claim) return this.#release(volume);
    if ((claim.spec?.volumeName ?? "") === "") {
      if (volumeModesMismatch(claim, volume)) {
        const claimName = claim.metadata?.name ?? "";
        events.warning(
          volume,
          "VolumeMismatch",
          `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${claimName}" due to incompatible volumeMode.`,
        );
        events.warning(
          claim,
          "VolumeMismatch",
          `Cannot bind PersistentVolume "${name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`,
        );
        return;
      }
      // Bound by us or pre-bound by a provisioner: the claim loop, which watches volumes, binds it.
      return;
    }
    if (claim.spec?.volumeName === name) {
      await updateVolumePhase(clients, volume, "Bound");
      return;
    }
    // The claim went to another volume: a volume provisioned for it is released for deletion,
    // any other is freed (or, pre-bound by its user, kept for that claim without its uid).
    if (hasAnnotation(volume, PROVISIONED_BY) && volume.spec?.persistentVolumeReclaimPolicy === "Delete") {
      return this.#release(volume);
    }
    await this.#unbind(volume);
  }

  /**
   * The claim the claimRef names, if it still exists with that uid. The cache may not show a
   * claim created a moment ago (a provisioner's or scheduler's work), so absence or another
   * uid is confirmed with the API server before the volume is released.
   */
  async #claimOf(volume: Frozen<PersistentVolume>): Promise<Claim | undefined> {
    const ref = volume.spec?.claimRef;
    if (!ref) return undefined;
    const cached = this.#deps.claims.get(`${ref.namespace}/${ref.name}`);
    if (cached && cached.metadata?.uid === ref.uid) return cached;
    const phase = volume.status?.phase;
    if (!cached && (phase === "Released" || phase === "Failed")) return undefined;
    try {
      const live = await this.#deps.clients.claims.get({
        namespace: ref.namespace ?? "",
        name: ref.name ?? "",
      });
      return live.metadata?.uid === ref.uid ? live : undefined;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async #release(volume: Frozen<PersistentVolume>): Promise<void> {
    const phase = volume.status?.phase;
    const current =
      phase === "Released" || phase === "Failed"
        ? volume
        : await updateVolumePhase(this.#deps.clients, volume, "Released");
    await this.#reclaim(current);
  }

  async #reclaim(volume: Volume): Promise<void> {
    const name = volume.metadata?.name ?? "";
    switch (volume.spec?.persistentVolumeReclaimPolicy) {
      case "Retain":
        return;
      case "Delete": {
        const provisioner = volume.metadata?.annotations?.[PROVISIONED_BY] ?? "";
        // An external provisioner deletes what it made: nothing to do here but wait.
        if (provisioner !== "" && !provisioner.startsWith("kubernetes.io/")) return;
        const message = `error getting deleter volume plugin for volume "${name}": no deletable volume plugin matched`;
        return this.#fail(volume, "VolumeFailedDelete", message);
      }
      case "Recycle":
        return this.#fail(volume, "VolumeFailedRecycle", "No recycler plugin found for the volume!");
      default:
        return this.#fail(
          volume,
          "VolumeUnknownReclaimPolicy",
          "Volume has unrecognized PersistentVolumeReclaimPolicy",
        );
    }
  }

  /** updateVolumePhaseWithEvent: Failed with the message, the event only on the transition. */
  async #fail(volume: Volume, reason: string, message: string): Promise<void> {
    if (volume.status?.phase === "Failed") return;
    await updateVolumePhase(this.#deps.clients, volume, "Failed", message);
    this.#deps.events.warning(volume, reason, message);
  }

  /** unbindVolume: drop a binding the controller made, or only the uid of one the user made. */
  async #unbind(volume: Frozen<PersistentVolume>): Promise<void> {
    const updated = mutableCopy<PersistentVolume>(volume);
    if (hasAnnotation(volume, BOUND_BY_CONTROLLER)) {
      if (updated.spec) delete updated.spec.claimRef;
      const annotations = { ...(updated.metadata?.annotations ?? {}) };
      delete annotations[BOUND_BY_CONTROLLER];
      updated.metadata = { ...updated.metadata, annotations };
    } else if (updated.spec?.claimRef) {
      updated.spec.claimRef = { ...updated.spec.claimRef, uid: "" };
    }
    const stored = await this.#deps.clients.volumes.update(updated);
    await updateVolumePhase(this.#deps.clients, stored, "Available");
  }
}
