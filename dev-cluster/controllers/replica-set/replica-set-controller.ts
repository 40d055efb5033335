import {
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Frozen,
  isEmptySelector,
  jsonEqual,
  type KeyMapper,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import type { ControllerContext } from "../controller-context.js";
import { type Pod, podKind, type ReplicaSet, replicaSetKind } from "../kinds.js";
import { claimChildren } from "../ownership/claim.js";
import { claimCandidates, ownershipIndexers } from "../ownership/controller-ref.js";
import { trackChildExpectations } from "../ownership/expectation-tracking.js";
import { labelSelectorOf, selects } from "../ownership/label-selector.js";
import { isPodActive } from "../pods/pod-state.js";
import { manageReplicas } from "./manage-replicas.js";
import { nextAvailabilityCheckMs, type ReplicaFailure, replicaSetStatus } from "./replica-set-status.js";

/**
 * The ReplicaSet controller (kube's replicaset controller): keeps spec.replicas active pods
 * from the template, adopting matching orphans and releasing pods that stopped matching, and
 * reports what it sees in the status.
 */
export function addReplicaSetController(context: ControllerContext): Controller {
  const { manager, clock } = context;
  const replicaSets = manager.informer(replicaSetKind);
  const pods = manager.informer<Pod>(podKind, { indexers: ownershipIndexers });
  const expectations = new Expectations({ clock });
  const podClient = manager.client.resource(podKind);
  const controller = manager.controller({
    name: "replicaset",
    workers: context.workers,
    reconcile: (request) => syncReplicaSet(request),
  });
  controller.watch(replicaSets);
  controller.watch(pods, replicaSetsOfPod(replicaSets));
  trackChildExpectations(pods, replicaSetKind, expectations);

  async function syncReplicaSet(request: ReconcileRequest): Promise<ReconcileResult | undefined> {
    const replicaSet = replicaSets.get(request.key);
    if (!replicaSet) {
      expectations.delete(request.key);
      return undefined;
    }
    const selector = labelSelectorOf(replicaSet.spec?.selector);
    // An empty selector would claim every pod of the namespace: validation refuses it, and so do we.
    if (isEmptySelector(selector)) return undefined;
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
        events: manager.events,
      });
    }
    const status = replicaSetStatus(replicaSet, owned, failure, clock.now());
    await unlessStale(() => writeStatus(replicaSet, status), request.log, "status update");
    if (failure) throw new Error(`ReplicaSet ${request.key}: ${failure.reason}: ${failure.message}`);
    const after = nextAvailabilityCheckMs(replicaSet, status);
    return after === undefined ? undefined : { requeueAfterMs: after };
  }

  async function writeStatus(replicaSet: Frozen<ReplicaSet>, status: ReplicaSet["status"]): Promise<void> {
    if (jsonEqual(replicaSet.status ?? {}, status)) return;
    const updated = mutableCopy<ReplicaSet>(replicaSet);
    updated.status = status;
    await manager.client.resource(replicaSetKind).updateStatus(updated);
  }

  return controller;
}

/** A pod enqueues its controlling ReplicaSet, or, as an orphan, every ReplicaSet that could adopt it. */
function replicaSetsOfPod(replicaSets: SharedInformer<ReplicaSet>): KeyMapper<Pod> {
  const owner = controllerOwnerKey<Pod>(replicaSetKind);
  return (pod) => {
    if (pod.metadata?.ownerReferences?.some((reference) => reference.controller)) return owner(pod);
    return replicaSets
      .list({ namespace: pod.metadata?.namespace ?? "" })
      .filter((replicaSet) => selects(replicaSet.spec?.selector, pod))
      .map(objectKey);
  };
}
