import {
  type Clock,
  type EventRecorder,
  type Expectations,
  type Frozen,
  isEmptySelector,
  jsonEqual,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import { type Pod, type ReplicaSet, replicaSetKind } from "../kinds.js";
import { claimChildren } from "../ownership/claim.js";
import { claimCandidates } from "../ownership/controller-ref.js";
import { labelSelectorOf } from "../ownership/label-selector.js";
import { isPodActive } from "../pods/pod-state.js";
import { manageReplicas } from "./manage-replicas.js";
import { nextAvailabilityCheckMs, type ReplicaFailure, replicaSetStatus } from "./replica-set-status.js";

export interface ReplicaSetReconcilerDeps {
  replicaSets: SharedInformer<ReplicaSet>;
  /** Indexed with ownershipIndexers (claimCandidates reads them). */
  pods: SharedInformer<Pod>;
  replicaSetClient: ResourceClient<ReplicaSet>;
  podClient: ResourceClient<Pod>;
  /** Fed by the pods' informer (trackChildExpectations), lowered here when a write fails. */
  expectations: Expectations;
  events: EventRecorder;
  clock: Clock;
}

/**
 * One reconcile of one ReplicaSet (kube's syncReplicaSet): claims the matching pods, creates or
 * deletes pods towards spec.replicas once the cache shows the last ones, and writes the status.
 */
export class ReplicaSetReconciler {
  readonly #deps: ReplicaSetReconcilerDeps;

  constructor(deps: ReplicaSetReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { replicaSets, pods, podClient, expectations, events, clock } = this.#deps;
    const replicaSet = replicaSets.get(request.key);
    if (!replicaSet) {
      expectations.delete(request.key);
      return {};
    }
    const selector = labelSelectorOf(replicaSet.spec?.selector);
    // An empty selector would claim every pod of the namespace: validation refuses it, and so do we.
    if (isEmptySelector(selector)) return {};
    const owned = await claimChildren<Pod>({
      owner: replicaSet,
      ownerKind: replicaSetKind,
      selector,
      candidates: claimCandidates(pods, replicaSet).filter(isPodActive),
      children: podClient,
    });
    let failure: ReplicaFailure | undefined;
    // Until our last creates and deletes show in the cache, the count of pods is not to be trusted.
    if (expectations.satisfied(request.key) && !replicaSet.metadata?.deletionTimestamp) {
      failure = await manageReplicas({
        replicaSet,
        key: request.key,
        pods: owned,
        podClient,
        expectations,
        events,
      });
    }
    const status = replicaSetStatus(replicaSet, owned, failure, clock.now());
    await unlessStale(() => this.#writeStatus(replicaSet, status), request.log, "status update");
    if (failure) throw new Error(`ReplicaSet ${request.key}: ${failure.reason}: ${failure.message}`);
    const after = nextAvailabilityCheckMs(replicaSet, status);
    return after === undefined ? {} : { requeueAfterMs: after };
  }

  async #writeStatus(replicaSet: Frozen<ReplicaSet>, status: ReplicaSet["status"]): Promise<void> {
    if (jsonEqual(replicaSet.status ?? {}, status)) return;
    const updated = mutableCopy<ReplicaSet>(replicaSet);
    updated.status = status;
    await this.#deps.replicaSetClient.updateStatus(updated);
  }
}
