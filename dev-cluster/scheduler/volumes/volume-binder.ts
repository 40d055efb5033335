import { type Clock, type Frozen, type KubeClient, mutableCopy, objectKey } from "../../../runtime/index.js";
import {
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  persistentVolumeClaimKind,
  persistentVolumeKind,
} from "../kinds.js";
import type { AssumedStorage } from "./assumed-storage.js";
import {
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  claimKeyOf,
  isClaimFullyBound,
  isVolumeBoundToClaim,
} from "./claim-helpers.js";
import type { NodeView, PodVolumesOnNode } from "./find-pod-volumes.js";
import { volumeNodeAffinityMatches } from "./volume-topology.js";

/** kube polls a pod's bindings every second; claim and volume events wake it sooner. */
export const VOLUME_CHECK_INTERVAL_MS = 1000;
/** kube's backoff queue after a failed binding cycle: 1 s doubling up to 10 s. */
const FAILURE_BACKOFF_MS = { initial: 1000, max: 10_000 };

interface VolumeToBind {
  readonly name: string;
  readonly claimKey: string;
  /** The volume with its claimRef set, while it still needs writing. */
  pending: Frozen<PersistentVolume> | undefined;
  /** The resourceVersion before our write: an informer copy still at it is stale. */
  staleVersion?: string;
}

interface ClaimToProvision {
  readonly key: string;
  readonly name: string;
  /** The claim with selected-node set, while it still needs writing. */
  pending: Frozen<PersistentVolumeClaim> | undefined;
  staleVersion?: string;
}

/** A pod between Reserve and Bind: its volumes are being bound for `nodeName` (kube's PodVolumes). */
export interface VolumeReservation {
  readonly podUid: string;
  readonly nodeName: string;
  /** When the PreBind gives up (kube's bindTimeoutSeconds). */
  readonly deadline: number;
  readonly volumes: readonly VolumeToBind[];
  readonly claims: readonly ClaimToProvision[];
}

export type PreBindOutcome =
  | { readonly kind: "bound" }
  | { readonly kind: "waiting" }
  | { readonly kind: "failed"; readonly message: string; readonly timedOut: boolean };

export interface VolumeBinderOptions {
  storage: AssumedStorage;
  client: KubeClient;
  clock: Clock;
  /** How long a pod waits for its claims to be bound before the cycle fails (kube: 600 s). */
  bindTimeoutMs: number;
}

/** GetBindVolumeToClaim: the volume with a full claimRef to the claim, or undefined when it has one. */
function volumeBoundTo(
  volume: Frozen<PersistentVolume>,
  claim: Frozen<PersistentVolumeClaim>,
): Frozen<PersistentVolume> | undefined {
  const ref = volume.spec?.claimRef;
  const refMatches =
    ref?.name === claim.metadata?.name &&
    ref?.namespace === claim.metadata?.namespace &&
    ref?.uid === claim.metadata?.uid;
  const markByController =
    !isVolumeBoundToClaim(volume, claim) &&
    volume.metadata?.annotations?.[ANN_BOUND_BY_CONTROLLER] === undefined;
  if (refMatches && !markByController) return undefined;
  const updated = mutableCopy<PersistentVolume>(volume);
  if (!refMatches) {
    updated.spec = {
      ...updated.spec,
      claimRef: {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        namespace: claim.metadata?.namespace,
        name: claim.metadata?.name,
        uid: claim.metadata?.uid,
        resourceVersion: claim.metadata?.resourceVersion,
      },
    };
  }
  if (markByController) {
    updated.metadata = {
      ...updated.metadata,
      annotations: { ...updated.metadata?.annotations, [ANN_BOUND_BY_CONTROLLER]: "yes" },
    };
  }
  return updated as Frozen<PersistentVolume>;
}

function claimSelectingNode(
  claim: Frozen<PersistentVolumeClaim>,
  nodeName: string,
): Frozen<PersistentVolumeClaim> | undefined {
  if (claim.metadata?.annotations?.[ANN_SELECTED_NODE] === nodeName) return undefined;
  const updated = mutableCopy<PersistentVolumeClaim>(claim);
  updated.metadata = {
    ...updated.metadata,
    annotations: { ...updated.metadata?.annotations, [ANN_SELECTED_NODE]: nodeName },
  };
  return updated as Frozen<PersistentVolumeClaim>;
}

const failed = (detail: string, timedOut = false): PreBindOutcome => ({
  kind: "failed",
  message: `running PreBind plugin "VolumeBinding": binding volumes: ${detail}`,
  timedOut,
});

/**
 * kube's SchedulerVolumeBinder from Reserve to PreBind, without holding a worker: `reserve`
 * assumes the chosen node's decisions (a volume's claimRef, a claim's selected-node), `write`
 * makes those API writes, and `check` is one poll of checkBindings, called again on claim and
 * volume events and every second until the claims are bound, the binding is undone, or the
 * timeout passes. The reservation lives in memory only: after a restart the claims' selected-node
 * annotations and the volumes' claimRefs lead the next cycle back to the same node.
 */
export class VolumeBinder {
  readonly #options: VolumeBinderOptions;
  readonly #reservations = new Map<string, VolumeReservation>();
  /** Failed binding cycles per pod, and when the pod may be tried again (kube's backoff queue). */
  readonly #failures = new Map<string, { count: number; retryAt: number }>();

  constructor(options: VolumeBinderOptions) {
    this.#options = options;
  }

  /** The reservation of this very pod (same uid), if its volumes are being bound. */
  reservationOf(pod: Frozen<Pod>): VolumeReservation | undefined {
    const reservation = this.#reservations.get(objectKey(pod));
    return reservation?.podUid === pod.metadata?.uid ? reservation : undefined;
  }

  /** Keys of the pods waiting for their claims, for the claim and volume event handlers. */
  waitingPods(): string[] {
    return [...this.#reservations.keys()];
  }

  /**
   * Reserve (AssumePodVolumes), synchronous so the next cycle already sees it: undefined when
   * every claim is bound and the pod can be bound at once.
   */
  reserve(pod: Frozen<Pod>, nodeName: string, decisions: PodVolumesOnNode): VolumeReservation | undefined {
    if (decisions.staticBindings.length === 0 && decisions.dynamicProvisions.length === 0) return undefined;
    const { storage } = this.#options;
    const volumes = decisions.staticBindings.map(({ volume, claim }): VolumeToBind => {
      const pending = volumeBoundTo(volume, claim);
      const name = volume.metadata?.name ?? "";
      if (pending) storage.pvs.assume(name, pending);
      return { name, claimKey: claimKeyOf(claim), pending };
    });
    const claims = decisions.dynamicProvisions.map((claim): ClaimToProvision => {
      const pending = claimSelectingNode(claim, nodeName);
      const key = claimKeyOf(claim);
      if (pending) storage.claims.assume(key, pending);
      return { key, name: claim.metadata?.name ?? "", pending };
    });
    const reservation: VolumeReservation = {
      podUid: pod.metadata?.uid ?? "",
      nodeName,
      deadline: this.#options.clock.now() + this.#options.bindTimeoutMs,
      volumes,
      claims,
    };
    this.#reservations.set(objectKey(pod), reservation);
    return reservation;
  }

  /** PreBind's API writes (bindAPIUpdate). A failure drops the reservation and throws. */
  async write(pod: Frozen<Pod>, reservation: VolumeReservation, signal: AbortSignal): Promise<void> {
    const { client } = this.#options;
    try {
      for (const volume of reservation.volumes) {
        if (!volume.pending) continue;
        volume.staleVersion = volume.pending.metadata?.resourceVersion;
        await client
          .resource(persistentVolumeKind)
          .update(mutableCopy<PersistentVolume>(volume.pending), { signal });
        volume.pending = undefined;
      }
      for (const claim of reservation.claims) {
        if (!claim.pending) continue;
        claim.staleVersion = claim.pending.metadata?.resourceVersion;
        await client
          .resource(persistentVolumeClaimKind)
          .update(mutableCopy<PersistentVolumeClaim>(claim.pending), { signal });
        claim.pending = undefined;
      }
    } catch (error) {
      this.forget(objectKey(pod));
      throw new Error(`binding the volumes of pod ${objectKey(pod)} failed`, { cause: error });
    }
  }

  /** One poll of checkBindings, on what the informers show (what the PV controller and provisioner wrote). */
  check(reservation: VolumeReservation, node: NodeView | undefined): PreBindOutcome {
    const { storage, clock } = this.#options;
    const nodeName = reservation.nodeName;
    if (!node) return failed(`failed to get node "${nodeName}": node "${nodeName}" not found`);
    const affinityFailure = (name: string) =>
      failed(`pv "${name}" node affinity doesn't match node "${nodeName}": no matching NodeSelectorTerms`);
    let allBound = true;
    for (const entry of reservation.volumes) {
      const volume = storage.pvs.live(entry.name);
      const claim = storage.claims.live(entry.claimKey);
      if (!volume) return failed(`failed to check binding: persistentvolume "${entry.name}" not found`);
      if (!claim)
        return failed(`failed to check binding: persistentvolumeclaim "${entry.claimKey}" not found`);
      if (volume.metadata?.resourceVersion === entry.staleVersion) {
        allBound = false;
        continue;
      }
      if (!volumeNodeAffinityMatches(volume, node.labels)) return affinityFailure(entry.name);
      if (!volume.spec?.claimRef?.uid) return failed(`ClaimRef got reset for pv "${entry.name}"`);
      if (!isClaimFullyBound(claim)) allBound = false;
    }
    for (const entry of reservation.claims) {
      const claim = storage.claims.live(entry.key);
      if (!claim)
        return failed(`failed to check provisioning pvc: persistentvolumeclaim "${entry.key}" not found`);
      if (claim.metadata?.resourceVersion === entry.staleVersion) {
        allBound = false;
        continue;
      }
      const annotations = claim.metadata?.annotations;
      if (!annotations || Object.keys(annotations).length === 0) {
        return failed(`selectedNode annotation reset for PVC "${entry.name}"`);
      }
      // A provisioner that gives up removes the annotation to ask for another node.
      if (annotations[ANN_SELECTED_NODE] !== nodeName)
        return failed(`provisioning failed for PVC "${entry.name}"`);
      const volumeName = claim.spec?.volumeName;
      if (volumeName) {
        const volume = storage.pvs.live(volumeName);
        if (!volume) {
          allBound = false;
          continue;
        }
        if (!volumeNodeAffinityMatches(volume, node.labels)) return affinityFailure(volumeName);
      }
      if (!isClaimFullyBound(claim)) allBound = false;
    }
    if (allBound) return { kind: "bound" };
    if (clock.now() >= reservation.deadline) return failed("context deadline exceeded", true);
    return { kind: "waiting" };
  }

  /** The pod was bound (or went away): the reservation ends and its failures are forgotten. */
  finish(podKey: string): void {
    this.forget(podKey);
    this.#failures.delete(podKey);
  }

  /** Drops the reservation and whatever of it is still only assumed. */
  forget(podKey: string): void {
    const reservation = this.#reservations.get(podKey);
    if (!reservation) return;
    this.#reservations.delete(podKey);
    for (const volume of reservation.volumes) this.#options.storage.pvs.restore(volume.name);
    for (const claim of reservation.claims) this.#options.storage.claims.restore(claim.key);
  }

  /**
   * The binding cycle failed: the reservation ends, and after a timeout the selected-node
   * annotations are taken back from the claims still unbound, so no provisioner acts for a pod
   * that is placed anew. Returns how long the pod waits before its next cycle.
   */
  async fail(
    podKey: string,
    reservation: VolumeReservation,
    timedOut: boolean,
    signal: AbortSignal,
  ): Promise<number> {
    this.forget(podKey);
    const count = (this.#failures.get(podKey)?.count ?? 0) + 1;
    const backoffMs = Math.min(FAILURE_BACKOFF_MS.initial * 2 ** (count - 1), FAILURE_BACKOFF_MS.max);
    this.#failures.set(podKey, { count, retryAt: this.#options.clock.now() + backoffMs });
    if (timedOut) {
      for (const entry of reservation.claims) {
        const claim = this.#options.storage.claims.live(entry.key);
        if (!claim || claim.spec?.volumeName) continue;
        if (claim.metadata?.annotations?.[ANN_SELECTED_NODE] !== reservation.nodeName) continue;
        await this.#options.client
          .resource(persistentVolumeClaimKind)
          .mergePatch(
            { namespace: claim.metadata?.namespace ?? "", name: entry.name },
            { metadata: { annotations: { [ANN_SELECTED_NODE]: null } } },
            { signal },
          );
      }
    }
    return backoffMs;
  }

  /**
   * How long the pod still backs off after a failed binding cycle (0: it may be tried). Events
   * (its own status write among them) must not cut the backoff short.
   */
  backoffRemainingMs(podKey: string): number {
    const retryAt = this.#failures.get(podKey)?.retryAt ?? 0;
    return Math.max(0, retryAt - this.#options.clock.now());
  }
}
