import {
  type EventRecorder,
  type Frozen,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import type { Node, PersistentVolume, PersistentVolumeClaim } from "../kinds.js";
import {
  assignDefaultClass,
  hasSelectedNode,
  isDelayBinding,
  type ProvisioningDeps,
  provisionClaim,
  reportWaitingForConsumer,
} from "./claim-provisioning.js";
import {
  annotationOf,
  BIND_COMPLETED,
  BOUND_BY_CONTROLLER,
  hasAnnotation,
  SELECTED_NODE,
} from "./storage-annotations.js";
import { type BindingClients, bind, updateClaimPhase } from "./volume-binding.js";
import { classOf, findMatchingVolume, isVolumeBoundToClaim, volumeMismatch } from "./volume-matching.js";

export interface ClaimReconcilerDeps extends ProvisioningDeps {
  claims: SharedInformer<PersistentVolumeClaim>;
  volumes: SharedInformer<PersistentVolume>;
  nodes: SharedInformer<Node>;
  clients: BindingClients;
  events: EventRecorder;
}

type Claim = Frozen<PersistentVolumeClaim>;
type Volume = Frozen<PersistentVolume>;

/**
 * One sync of one claim (kube's syncClaim): an unbound claim is bound to the volume it names,
 * or the best matching one, or handed to its class's provisioner; a bound claim keeps its
 * binding complete, or turns Lost when its volume is gone or belongs to another claim.
 */
export class ClaimReconciler {
  readonly #deps: ClaimReconcilerDeps;

  constructor(deps: ClaimReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const claim = this.#deps.claims.get(request.key);
    if (!claim) return {};
    const sync = () =>
      hasAnnotation(claim, BIND_COMPLETED) ? this.#syncBound(claim) : this.#syncUnbound(claim);
    await unlessStale(sync, request.log, "claim sync");
    return {};
  }

  /** The node the scheduler chose for the claim's first consumer (as a bare node when not cached). */
  #selectedNode(claim: Claim): Frozen<Node> | undefined {
    const name = annotationOf(claim, SELECTED_NODE) ?? "";
    if (name === "") return undefined;
    return (
      this.#deps.nodes.get(name) ?? {
        apiVersion: "v1",
        kind: "Node",
        metadata: { name, labels: { "kubernetes.io/hostname": name } },
      }
    );
  }

  async #syncUnbound(claim: Claim): Promise<void> {
    const { clients, volumes, events } = this.#deps;
    const volumeName = claim.spec?.volumeName ?? "";
    if (volumeName !== "") return this.#syncNamedVolume(claim, volumeName);
    const delayBinding = isDelayBinding(claim, this.#deps.classes);
    const node = delayBinding ? this.#selectedNode(claim) : undefined;
    const volume = findMatchingVolume(claim, volumes.list(), { delayBinding, node });
    if (volume) return bind(clients, volume, claim);
    if (await assignDefaultClass(this.#deps, claim)) return;
    if (delayBinding && !hasSelectedNode(claim)) {
      reportWaitingForConsumer(this.#deps, claim);
    } else if (classOf(claim) !== "") {
      // The provisioner's volume, pre-bound to the claim, is bound by a later sync.
      return provisionClaim(this.#deps, claim);
    } else {
      events.normal(
        claim,
        "FailedBinding",
        "no persistent volumes available for this claim and no storage class is set",
      );
    }
    await updateClaimPhase(clients, claim, "Pending", undefined);
  }

  /** The user named a volume: bind to it if it is free (or already ours) and fits. */
  async #syncNamedVolume(claim: Claim, volumeName: string): Promise<void> {
    const { clients, volumes, events } = this.#deps;
    const volume = volumes.get(volumeName);
    if (!volume) {
      await updateClaimPhase(clients, claim, "Pending", undefined);
      return;
    }
    if (!volume.spec?.claimRef) {
      const mismatch = volumeMismatch(volume, claim);
      if (mismatch === undefined) return bind(clients, volume, claim);
      events.warning(claim, "VolumeMismatch", `Cannot bind to requested volume "${volumeName}": ${mismatch}`);
      await updateClaimPhase(clients, claim, "Pending", undefined);
      return;
    }
    if (isVolumeBoundToClaim(volume, claim)) return bind(clients, volume, claim);
    events.warning(claim, "FailedBinding", `volume "${volumeName}" already bound to a different claim.`);
    if (hasAnnotation(claim, BOUND_BY_CONTROLLER)) {
      // Only a user removing bind-completed gets a claim here: say so loudly, and retry.
      throw new Error(
        `invalid binding of claim ${claim.metadata?.namespace}/${claim.metadata?.name} to volume "${volumeName}": the volume is claimed by ${volume.spec.claimRef.namespace}/${volume.spec.claimRef.name}`,
      );
    }
    await updateClaimPhase(clients, claim, "Pending", undefined);
  }

  async #syncBound(claim: Claim): Promise<void> {
    const { clients, volumes } = this.#deps;
    const volumeName = claim.spec?.volumeName ?? "";
    if (volumeName === "") {
      return this.#lose(
        claim,
        "ClaimLost",
        "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!",
      );
    }
    const volume: Volume | undefined = volumes.get(volumeName);
    if (!volume) {
      return this.#lose(
        claim,
        "ClaimLost",
        "Bound claim has lost its PersistentVolume. Data on the volume is lost!",
      );
    }
    const ref = volume.spec?.claimRef;
    // An unbound volume (or one the cache shows before our claimRef write) is bound again.
    if (!ref || ref.uid === claim.metadata?.uid) return bind(clients, volume, claim);
    return this.#lose(
      claim,
      "ClaimMisbound",
      "Two claims are bound to the same volume, this one is bound incorrectly",
    );
  }

  /** Lost is terminal: its event is sent once, on the transition. */
  async #lose(claim: Claim, reason: string, message: string): Promise<void> {
    if (claim.status?.phase === "Lost") return;
    await updateClaimPhase(this.#deps.clients, claim, "Lost", undefined);
    this.#deps.events.warning(claim, reason, message);
  }
}
