import {
  type EventRecorder,
  isNotFound,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../runtime/index.js";
import { LOCAL_PATH_PROVISIONER, type PersistentVolume, PROVISIONED_BY_ANNOTATION } from "./kinds.js";
import type { VolumeDirectories } from "./volume-directory.js";

export interface VolumeDeletionDeps {
  volumes: SharedInformer<PersistentVolume>;
  volumeClient: ResourceClient<PersistentVolume>;
  directories: VolumeDirectories;
  events: EventRecorder;
}

/**
 * One reconcile of one PV (key: its name): a Released PV this provisioner made, with reclaim
 * policy Delete, loses its directory, then the PV is deleted. Removing an absent directory and
 * deleting an absent PV are both fine, so a crash between the two is finished on the next look.
 * A PV whose path is not one of our volume directories keeps its data and is reported
 * (VolumeFailedDelete): the path is the API's, and only our own children of the base are removed.
 */
export class VolumeDeletionReconciler {
  readonly #deps: VolumeDeletionDeps;

  constructor(deps: VolumeDeletionDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const volume = this.#deps.volumes.get(request.key);
    if (!volume || volume.metadata?.deletionTimestamp) return {};
    if (volume.metadata?.annotations?.[PROVISIONED_BY_ANNOTATION] !== LOCAL_PATH_PROVISIONER) return {};
    if (volume.status?.phase !== "Released") return {};
    if ((volume.spec?.persistentVolumeReclaimPolicy ?? "Delete") !== "Delete") return {};
    const path = volume.spec?.local?.path ?? volume.spec?.hostPath?.path ?? "";
    const refusal = this.#deps.directories.refusalToRemove(path);
    if (refusal) {
      this.#deps.events.warning(volume, "VolumeFailedDelete", `not deleting the volume's data: ${refusal}`);
      return {};
    }
    try {
      this.#deps.directories.remove(path);
    } catch (error) {
      this.#deps.events.warning(
        volume,
        "VolumeFailedDelete",
        error instanceof Error ? error.message : String(error),
      );
      throw error;
    }
    try {
      await this.#deps.volumeClient.delete(
        { name: request.name },
        { preconditions: { uid: volume.metadata?.uid ?? "" } },
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    request.log.info({ path }, "deleted the volume and its directory");
    return {};
  }
}
