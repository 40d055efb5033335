import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { dataVolumeKind, type StoredDataVolume } from "../../api/index.js";
import {
  type Clock,
  type EventRecorder,
  type Frozen,
  isAlreadyExists,
  isConflict,
  isNotFound,
  jsonEqual,
  type KubeClient,
  mutableCopy,
  persistentVolumeClaimKind,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
} from "../../runtime/index.js";
import { type Pod, podKind } from "../kinds.js";
import { DataVolumeSpecError, renderClaim } from "./data-volume-claim.js";
import { dataVolumeStatus } from "./data-volume-status.js";
import { readImportProgress } from "./import-progress.js";
import { importSourceOf } from "./import-source.js";
import {
  IMPORTER_METRICS_PORT,
  type ImportSource,
  importerPodName,
  renderImporterPod,
} from "./importer-pod.js";

export interface DataVolumeReconcilerDeps {
  dataVolumes: SharedInformer<StoredDataVolume>;
  claims: Pick<SharedInformer<IPersistentVolumeClaim>, "get">;
  /** Launcher pods by the claims they mount (`namespace/claim`): a clone waits while a VM uses its source. */
  podsUsingClaim: (claimKey: string) => readonly Frozen<Pod>[];
  client: KubeClient;
  events: EventRecorder;
  clock: Clock;
  /** The importer pods' image (`--importer-image`). */
  importerImage: string;
  progress?: typeof readImportProgress;
}

/** How often a running import is looked at: its progress and its end (importer pods are not watched). */
const IMPORT_POLL_MS = 2000;

/**
 * One reconcile of one DataVolume, level-based: its claim (made once, owned by it), then its importer
 * pod (made once the claim exists and until the import succeeded), then the status as CDI reports it.
 * A succeeded importer pod is deleted, as CDI deletes it; Succeeded stays while the claim exists.
 */
export class DataVolumeReconciler {
  readonly #deps: DataVolumeReconcilerDeps;

  constructor(deps: DataVolumeReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const dv = this.#deps.dataVolumes.get(request.key);
    if (!dv || dv.metadata?.deletionTimestamp) return {};
    const namespace = dv.metadata?.namespace ?? "";
    const claimName = dv.metadata?.name ?? "";
    const resolved = importSourceOf(dv);
    let blocked = "problem" in resolved ? resolved.problem : undefined;
    let claim: Frozen<IPersistentVolumeClaim> | IPersistentVolumeClaim | undefined = this.#deps.claims.get(
      request.key,
    );
    if (claim && !ownedBy(claim, dv)) {
      blocked = {
        reason: "ErrClaimNotValid",
        message: `PersistentVolumeClaim ${claimName} already exists and is not owned by the DataVolume`,
      };
    }
    const source = "source" in resolved ? resolved.source : undefined;
    blocked ??= source && this.#cloneProblem(namespace, source);
    if (!blocked && !claim) claim = await this.#createClaim(request, dv);
    let importer = await this.#importerPod(dv);
    let done = dv.status?.phase === "Succeeded" && claim !== undefined && importer === undefined;
    if (importer?.status?.phase === "Succeeded") {
      done = true;
      await this.#deleteImporter(importer);
      this.#deps.events.normal(dv, "ImportSucceeded", `Successfully imported into PVC ${claimName}`);
      importer = undefined;
    } else if (!blocked && !done && claim && !importer && source) {
      importer = await this.#createImporter(request, dv, source);
    }
    const running = importer?.status?.phase === "Running" && importer.status.podIP;
    const progress = running
      ? await (this.#deps.progress ?? readImportProgress)(
          importer?.status?.podIP ?? "",
          IMPORTER_METRICS_PORT,
          dv.metadata?.uid ?? "",
        )
      : undefined;
    const status = dataVolumeStatus({
      status: dv.status,
      claimName,
      claim,
      importer,
      clone: source?.kind === "pvc",
      done,
      blocked,
      progressPercent: progress,
      nowMs: this.#deps.clock.now(),
    });
    await this.#writeStatus(dv, status);
    // A running import is polled, and so is a clone waiting for its source (its users are not watched).
    const waitsForSource =
      blocked?.reason === "CloneSourceInUse" || blocked?.reason === "CloneSourceNotFound";
    return importer || waitsForSource ? { requeueAfterMs: IMPORT_POLL_MS } : {};
  }

  /** A clone waits for its source claim to exist and to be free of VMs. */
  #cloneProblem(namespace: string, source: ImportSource): { reason: string; message: string } | undefined {
    if (source.kind !== "pvc") return undefined;
    const key = `${namespace}/${source.claimName}`;
    if (this.#deps.claims.get(key) === undefined) {
      return { reason: "CloneSourceNotFound", message: `source PVC ${key} does not exist` };
    }
    const user = this.#deps
      .podsUsingClaim(key)
      .find((pod) => !["Succeeded", "Failed"].includes(pod.status?.phase ?? ""));
    if (user) {
      return {
        reason: "CloneSourceInUse",
        message: `pod ${namespace}/${user.metadata?.name ?? ""} is using source PVC ${source.claimName}: a clone waits until it is stopped`,
      };
    }
    return undefined;
  }

  async #createClaim(
    request: ReconcileRequest,
    dv: Frozen<StoredDataVolume>,
  ): Promise<IPersistentVolumeClaim | undefined> {
    let manifest: IPersistentVolumeClaim;
    try {
      manifest = renderClaim(dv);
    } catch (error) {
      if (error instanceof DataVolumeSpecError) return undefined; // admission said so; the status does too
      throw error;
    }
    try {
      const created = await this.#deps.client.resource(persistentVolumeClaimKind).create(manifest);
      request.log.info({ claim: manifest.metadata?.name }, "created the DataVolume's claim");
      return created;
    } catch (error) {
      if (isAlreadyExists(error)) return undefined; // made before, not in the cache yet
      throw error;
    }
  }

  async #importerPod(dv: Frozen<StoredDataVolume>): Promise<Pod | undefined> {
    const ref = { namespace: dv.metadata?.namespace ?? "", name: importerPodName(dv) };
    try {
      const pod = await this.#deps.client.resource(podKind).get(ref);
      return pod.metadata?.ownerReferences?.some((owner) => owner.uid === dv.metadata?.uid) ? pod : undefined;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async #createImporter(
    request: ReconcileRequest,
    dv: Frozen<StoredDataVolume>,
    source: ImportSource,
  ): Promise<Pod | undefined> {
    const manifest = renderImporterPod(dv, source, this.#deps.importerImage);
    try {
      const pod = await this.#deps.client.resource(podKind).create(manifest);
      request.log.info({ pod: pod.metadata?.name, source: source.kind }, "created the importer pod");
      const what = source.kind === "pvc" ? "Cloning" : "Import";
      this.#deps.events.normal(
        dv,
        source.kind === "pvc" ? "CloneScheduled" : "ImportScheduled",
        `${what} into ${dv.metadata?.name ?? ""} scheduled`,
      );
      return pod;
    } catch (error) {
      if (isAlreadyExists(error)) return undefined;
      throw error;
    }
  }

  async #deleteImporter(pod: Frozen<Pod>): Promise<void> {
    const ref = { namespace: pod.metadata?.namespace ?? "", name: pod.metadata?.name ?? "" };
    await this.#deps.client
      .resource(podKind)
      .delete(ref, { preconditions: { uid: pod.metadata?.uid ?? "" } })
      .catch((error: unknown) => {
        if (!isNotFound(error) && !isConflict(error)) throw error;
      });
  }

  async #writeStatus(dv: Frozen<StoredDataVolume>, status: StoredDataVolume["status"]): Promise<void> {
    if (jsonEqual(status, dv.status)) return;
    const updated = mutableCopy<StoredDataVolume>(dv);
    updated.status = status;
    try {
      await this.#deps.client.resource(dataVolumeKind).updateStatus(updated);
    } catch (error) {
      // The DataVolume changed since the cache saw it: its newer version's event brings it back.
      if (isConflict(error) || isNotFound(error)) return;
      throw error;
    }
  }
}

function ownedBy(claim: Frozen<IPersistentVolumeClaim>, dv: Frozen<StoredDataVolume>): boolean {
  return claim.metadata?.ownerReferences?.some((owner) => owner.uid === dv.metadata?.uid) === true;
}
