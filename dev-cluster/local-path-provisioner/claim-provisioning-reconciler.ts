import {
  type EventRecorder,
  type Frozen,
  isAlreadyExists,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../runtime/index.js";
import {
  BETA_STORAGE_PROVISIONER_ANNOTATION,
  HOSTNAME_LABEL,
  LOCAL_PATH_PROVISIONER,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  SELECTED_NODE_ANNOTATION,
  STORAGE_PROVISIONER_ANNOTATION,
  type StorageClass,
} from "./kinds.js";
import { persistentVolumeName, renderPersistentVolume } from "./persistent-volume.js";
import type { VolumeDirectories } from "./volume-directory.js";

export interface ClaimProvisioningDeps {
  claims: SharedInformer<PersistentVolumeClaim>;
  volumes: SharedInformer<PersistentVolume>;
  storageClasses: SharedInformer<StorageClass>;
  nodes: SharedInformer<Node>;
  volumeClient: ResourceClient<PersistentVolume>;
  directories: VolumeDirectories;
  events: EventRecorder;
  /** The provisioner's own node: where a claim with no selected node is put. */
  nodeName: string;
}

/** How long a claim whose class is missing waits before it is looked at again. */
const MISSING_CLASS_RETRY_MS = 10_000;

export const FILESYSTEM_ONLY = "the local-path provisioner supports volumeMode Filesystem only";

/**
 * One reconcile of one claim (key `namespace/name`): a Pending claim handed to this provisioner
 * (the PV controller's storage-provisioner annotation), with no volume yet, gets its directory and
 * its PV. Every step is repeatable: the directory may already exist (a crash before the PV's
 * create) and the PV's name `pvc-<uid>` makes a second create answer AlreadyExists. Binding is
 * the PV controller's: once the PV exists, nothing more is done here.
 */
export class ClaimProvisioningReconciler {
  readonly #deps: ClaimProvisioningDeps;

  constructor(deps: ClaimProvisioningDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const claim = this.#deps.claims.get(request.key);
    if (!claim || !this.#isHandedToUs(claim)) return {};
    if (this.#deps.volumes.get(persistentVolumeName(claim))) return {};
    const className = claim.spec?.storageClassName ?? "";
    const storageClass = this.#deps.storageClasses.get(className);
    if (!storageClass) {
      this.#failed(claim, className, `storageclass.storage.k8s.io "${className}" not found`);
      return { requeueAfterMs: MISSING_CLASS_RETRY_MS };
    }
    // Another provisioner's class: the annotation is stale or wrong, and not ours to act on.
    if (storageClass.provisioner !== LOCAL_PATH_PROVISIONER) return {};
    const selectedNode = claim.metadata?.annotations?.[SELECTED_NODE_ANNOTATION];
    // WaitForFirstConsumer: only once the scheduler has chosen the node of the first pod.
    if (storageClass.volumeBindingMode === "WaitForFirstConsumer" && !selectedNode) return {};
    // Not retried: nothing but a new claim changes the mode (the field is immutable).
    if ((claim.spec?.volumeMode ?? "Filesystem") !== "Filesystem") {
      this.#failed(claim, className, FILESYSTEM_ONLY);
      return {};
    }
    if (claim.spec?.resources?.requests?.storage === undefined) {
      this.#failed(claim, className, "the claim requests no storage");
      return {};
    }
    const namespace = claim.metadata?.namespace ?? "";
    const name = claim.metadata?.name ?? "";
    this.#deps.events.normal(
      claim,
      "Provisioning",
      `External provisioner is provisioning volume for claim "${namespace}/${name}"`,
    );
    let path: string;
    try {
      path = this.#deps.directories.ensure({ uid: claim.metadata?.uid ?? "", namespace, name });
    } catch (error) {
      this.#failed(claim, className, error instanceof Error ? error.message : String(error));
      throw error;
    }
    const volume = renderPersistentVolume({
      claim,
      storageClass,
      path,
      hostname: this.#hostnameOf(selectedNode || this.#deps.nodeName),
    });
    try {
      await this.#deps.volumeClient.create(volume);
    } catch (error) {
      // Created a moment ago, by us before a restart or by a second replica: the claim has its PV.
      if (isAlreadyExists(error)) return {};
      this.#failed(claim, className, error instanceof Error ? error.message : String(error));
      throw error;
    }
    request.log.info({ volume: volume.metadata?.name, path }, "provisioned");
    this.#deps.events.normal(
      claim,
      "ProvisioningSucceeded",
      `Successfully provisioned volume ${volume.metadata?.name}`,
    );
    return {};
  }

  /** Pending, no volume named, not being deleted, and the PV controller gave it to this provisioner. */
  #isHandedToUs(claim: Frozen<PersistentVolumeClaim>): boolean {
    if (claim.metadata?.deletionTimestamp || claim.spec?.volumeName) return false;
    const phase = claim.status?.phase ?? "Pending";
    if (phase !== "Pending") return false;
    const annotations = claim.metadata?.annotations ?? {};
    const provisioner =
      annotations[STORAGE_PROVISIONER_ANNOTATION] ?? annotations[BETA_STORAGE_PROVISIONER_ANNOTATION];
    return provisioner === LOCAL_PATH_PROVISIONER;
  }

  /** The node's hostname label, which PV node affinity names (the node's name when it has none). */
  #hostnameOf(nodeName: string): string {
    return this.#deps.nodes.get(nodeName)?.metadata?.labels?.[HOSTNAME_LABEL] ?? nodeName;
  }

  #failed(claim: Frozen<PersistentVolumeClaim>, className: string, reason: string): void {
    this.#deps.events.warning(
      claim,
      "ProvisioningFailed",
      `failed to provision volume with StorageClass "${className}": ${reason}`,
    );
  }
}
