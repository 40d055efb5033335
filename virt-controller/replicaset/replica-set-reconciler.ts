import type { StoredVirtualMachineInstanceReplicaSet } from "../../api/index.js";
import {
  CACHE_IS_BEHIND,
  type Clock,
  type EventRecorder,
  type Expectations,
  type Frozen,
  isConflict,
  isNotFound,
  jsonEqual,
  mutableCopy,
  type OwnWrites,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { claimVmis } from "./claim-vmis.js";
import { createVmis, deleteVmis } from "./replica-changes.js";
import { selectorOf } from "./replica-set-selector.js";
import { type ReplicaFailure, replicaSetStatus, showsPaused } from "./replica-set-status.js";
import { classifyVmis, type ReplicaVmis } from "./replica-vmis.js";
import { inDeletionOrder } from "./scale-down-order.js";
import { claimCandidates } from "./vmi-indexes.js";

type ReplicaSet = StoredVirtualMachineInstanceReplicaSet;

/** KubeVirt's BurstReplicas: at most this many creates or deletes per reconcile. */
export const KUBEVIRT_BURST_REPLICAS = 250;

export interface ReplicaSetReconcilerDeps {
  replicaSets: Pick<SharedInformer<ReplicaSet>, "get">;
  /** Indexed with vmiIndexers. */
  vmis: Pick<SharedInformer<VirtualMachineInstance>, "byIndex">;
  replicaSetClient: Pick<ResourceClient<ReplicaSet>, "get" | "updateStatus">;
  vmiClient: Pick<ResourceClient<VirtualMachineInstance>, "create" | "delete" | "jsonPatch">;
  events: Pick<EventRecorder, "normal" | "warning">;
  /** The VMI creates and deletes not yet in the cache, per replica set key. */
  expectations: Expectations;
  /** The replica set status writes not yet in the cache. */
  ownWrites: OwnWrites;
  clock: Clock;
  burstReplicas: number;
}

/**
 * One reconcile of one VirtualMachineInstanceReplicaSet (KubeVirt's replicaset controller):
 * claims the VMIs its selector matches, then, once the cache shows its last creates and deletes
 * and unless it is paused or being deleted, creates or deletes VMIs towards `spec.replicas`
 * (default 1) and deletes finished ones; then writes its status, if it changed.
 *
 * Nothing kept in memory is needed for the count to be right: it is taken from the informer
 * cache, which the controller fills from the API before its first reconcile, and the expectations
 * only cover the lag between our own writes and the cache showing them. A new process (after a
 * crash) counts what the API holds; the leader Lease it must wait for outlasts any create the old
 * process still had in flight.
 */
export class ReplicaSetReconciler {
  readonly #deps: ReplicaSetReconcilerDeps;

  constructor(deps: ReplicaSetReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { replicaSets, expectations, ownWrites } = this.#deps;
    const replicaSet = replicaSets.get(request.key);
    if (!replicaSet) {
      expectations.delete(request.key);
      ownWrites.forget(request.key);
      return {};
    }
    if (ownWrites.cacheIsBehind(request.key, replicaSet.metadata?.resourceVersion)) return CACHE_IS_BEHIND;
    const selector = selectorOf(replicaSet);
    if (selector.kind === "unusable") {
      // Nothing to retry until the spec changes (and its event brings the key back).
      request.log.error(
        { reason: selector.reason },
        "the replica set's selector is unusable; leaving it alone",
      );
      this.#deps.events.warning(
        replicaSet,
        "InvalidSelector",
        `${selector.reason}; no VMI is created or deleted`,
      );
      return {};
    }
    const owned = await claimVmis({
      replicaSet,
      matches: selector.matches,
      candidates: claimCandidates(this.#deps.vmis, replicaSet),
      vmis: this.#deps.vmiClient,
      mayAdopt: () => this.#mayAdopt(replicaSet),
    });
    const vmis = classifyVmis(owned);
    const mayScale =
      expectations.satisfied(request.key) &&
      replicaSet.spec.paused !== true &&
      !replicaSet.metadata?.deletionTimestamp;
    const failure = mayScale ? await this.#scale(request, replicaSet, vmis) : undefined;
    const status = replicaSetStatus({
      replicaSet,
      activeCount: vmis.active.length,
      readyCount: vmis.ready.length,
      selectorText: selector.text,
      failure,
      nowMs: this.#deps.clock.now(),
    });
    await this.#writeStatus(request, replicaSet, status);
    if (failure) throw new Error(`replica set ${request.key}: ${failure.reason}: ${failure.message}`);
    return {};
  }

  /**
   * Creates the missing VMIs, or deletes the surplus (inDeletionOrder) and the finished ones, at
   * most burstReplicas of them. Finished VMIs are not active, so their replacements are made
   * first; they are deleted by a reconcile that creates nothing, so that one expectation (of
   * creates, or of these deletes) covers each reconcile's writes.
   */
  async #scale(
    request: ReconcileRequest,
    replicaSet: Frozen<ReplicaSet>,
    vmis: ReplicaVmis,
  ): Promise<ReplicaFailure | undefined> {
    const burst = this.#deps.burstReplicas;
    const diff = vmis.active.length - (replicaSet.spec.replicas ?? 1);
    if (diff < 0) return createVmis(this.#deps, request, replicaSet, Math.min(-diff, burst));
    const surplus = diff > 0 ? inDeletionOrder(vmis.active).slice(0, Math.min(diff, burst)) : [];
    const finished = vmis.finished.slice(0, burst - surplus.length);
    if (surplus.length + finished.length === 0) return undefined;
    return deleteVmis(this.#deps, request, replicaSet, [
      ...surplus.map((vmi) => ({ vmi, cause: "surplus" as const })),
      ...finished.map((vmi) => ({ vmi, cause: "finished" as const })),
    ]);
  }

  /** The replica set as the API has it now: the same one (uid), and not being deleted. */
  async #mayAdopt(replicaSet: Frozen<ReplicaSet>): Promise<boolean> {
    try {
      const fresh = await this.#deps.replicaSetClient.get({
        namespace: replicaSet.metadata?.namespace ?? "",
        name: replicaSet.metadata?.name ?? "",
      });
      return fresh.metadata?.uid === replicaSet.metadata?.uid && !fresh.metadata?.deletionTimestamp;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw new Error(`cannot read replica set ${replicaSet.metadata?.name ?? ""} before adopting`, {
        cause: error,
      });
    }
  }

  async #writeStatus(
    request: ReconcileRequest,
    replicaSet: Frozen<ReplicaSet>,
    status: NonNullable<ReplicaSet["status"]>,
  ): Promise<void> {
    if (jsonEqual(status, replicaSet.status ?? {})) return;
    const updated = mutableCopy<ReplicaSet>(replicaSet);
    updated.status = status;
    let stored: ReplicaSet;
    try {
      stored = await this.#deps.replicaSetClient.updateStatus(updated);
    } catch (error) {
      // The replica set changed since the cache saw it: its newer version's event brings the key back.
      if (isConflict(error)) return;
      throw error;
    }
    this.#deps.ownWrites.wrote(
      request.key,
      replicaSet.metadata?.resourceVersion,
      stored.metadata?.resourceVersion,
    );
    const paused = replicaSet.spec.paused === true;
    if (paused !== showsPaused(replicaSet)) {
      this.#deps.events.normal(
        replicaSet,
        paused ? "SuccessfulPaused" : "SuccessfulResumed",
        paused ? "Paused" : "Resumed",
      );
    }
  }
}
