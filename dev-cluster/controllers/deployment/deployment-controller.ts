import {
  type Controller,
  controllerOwnerKey,
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
import {
  type Deployment,
  deploymentKind,
  type Pod,
  podKind,
  type ReplicaSet,
  replicaSetKind,
} from "../kinds.js";
import { claimChildren } from "../ownership/claim.js";
import {
  claimCandidates,
  controllerOf,
  controllerUidIndex,
  ownershipIndexers,
} from "../ownership/controller-ref.js";
import { labelSelectorOf, selects } from "../ownership/label-selector.js";
import { calculateStatus, setPausedCondition, stuckCheckAfterMs } from "./deployment-status.js";
import { proportionalSync } from "./proportional-scale.js";
import { rolloutRecreate } from "./recreate.js";
import { isScalingEvent, splitNewAndOld } from "./replica-set-groups.js";
import { rolloutRolling } from "./rolling-update.js";
import { type RolloutContext, writeDeployment } from "./rollout-context.js";

/**
 * The Deployment controller (kube's deployment controller): a ReplicaSet per pod template,
 * rolled from old to new as the strategy says, resized when the Deployment is, history trimmed,
 * and a status `kubectl rollout status` can follow.
 */
export function addDeploymentController(context: ControllerContext): Controller {
  const { manager, clock } = context;
  const deployments = manager.informer(deploymentKind);
  const replicaSets = manager.informer<ReplicaSet>(replicaSetKind, { indexers: ownershipIndexers });
  const pods = manager.informer<Pod>(podKind, { indexers: ownershipIndexers });
  const replicaSetClient = manager.client.resource(replicaSetKind);
  const controller = manager.controller({
    name: "deployment",
    workers: context.workers,
    reconcile: (request) => syncDeployment(request),
  });
  controller.watch(deployments);
  controller.watch(replicaSets, deploymentsOfReplicaSet(deployments));
  // Recreate waits for the old pods to be gone: their removal is the event that resumes it.
  controller.dependsOn(pods);
  pods.addEventHandler({
    onDelete: (pod) => {
      const replicaSet = ownerReplicaSet(replicaSets, pod);
      for (const key of replicaSet ? controllerOwnerKey<ReplicaSet>(deploymentKind)(replicaSet) : []) {
        if (deployments.get(key)?.spec?.strategy?.type === "Recreate") controller.enqueue(key);
      }
    },
  });

  async function syncDeployment(request: ReconcileRequest): Promise<ReconcileResult | undefined> {
    const original = deployments.get(request.key);
    if (!original) return undefined;
    const rollout: RolloutContext = {
      deployment: mutableCopy<Deployment>(original),
      replicaSets: replicaSetClient,
      deployments: manager.client.resource(deploymentKind),
      events: manager.events,
      nowMs: clock.now(),
      podsOf: (replicaSet) => pods.byIndex(controllerUidIndex, replicaSet.metadata?.uid ?? ""),
    };
    const selector = labelSelectorOf(original.spec?.selector);
    if (isEmptySelector(selector)) {
      rollout.deployment.status ??= {};
      manager.events.warning(
        original,
        "SelectingAll",
        "This deployment is selecting all pods. A non-empty selector is required.",
      );
      rollout.deployment.status.observedGeneration = original.metadata?.generation ?? 0;
      const changed = !jsonEqual(original.status, rollout.deployment.status);
      await unlessStale(() => writeDeployment(rollout, original, changed), request.log, "deployment update");
      return undefined;
    }
    const owned = await claimChildren<ReplicaSet>({
      owner: original,
      ownerKind: deploymentKind,
      selector,
      candidates: claimCandidates(replicaSets, original),
      children: replicaSetClient,
    });
    await step(rollout, original, owned);
    const status = rollout.deployment.status ?? {};
    const changed = !jsonEqual(original.status ?? {}, status);
    await unlessStale(() => writeDeployment(rollout, original, changed), request.log, "deployment update");
    const after = stuckCheckAfterMs(rollout.deployment, status, rollout.nowMs);
    return after === undefined ? undefined : { requeueAfterMs: after };
  }

  /** Chooses what this sync does, as syncDeployment does: status only, a resize, or a rollout step. */
  async function step(
    rollout: RolloutContext,
    original: Frozen<Deployment>,
    owned: Frozen<ReplicaSet>[],
  ): Promise<void> {
    const deployment = rollout.deployment;
    if (original.metadata?.deletionTimestamp) {
      const { newReplicaSet, oldReplicaSets } = splitNewAndOld(deployment, owned);
      deployment.status = calculateStatus(
        deployment,
        [...oldReplicaSets, newReplicaSet],
        newReplicaSet,
        rollout.nowMs,
      );
      return;
    }
    setPausedCondition(deployment, rollout.nowMs);
    if (deployment.spec?.paused || isScalingEvent(deployment, owned)) return proportionalSync(rollout, owned);
    if (deployment.spec?.strategy?.type === "Recreate") return rolloutRecreate(rollout, owned);
    return rolloutRolling(rollout, owned);
  }

  return controller;
}

function ownerReplicaSet(
  replicaSets: SharedInformer<ReplicaSet>,
  pod: Frozen<Pod>,
): Frozen<ReplicaSet> | undefined {
  const owner = controllerOf(pod);
  if (owner?.kind !== replicaSetKind.kind) return undefined;
  const replicaSet = replicaSets.get({ namespace: pod.metadata?.namespace ?? "", name: owner.name });
  return replicaSet?.metadata?.uid === owner.uid ? replicaSet : undefined;
}

/** A ReplicaSet enqueues its controlling Deployment, or, as an orphan, every Deployment that could adopt it. */
function deploymentsOfReplicaSet(deployments: SharedInformer<Deployment>): KeyMapper<ReplicaSet> {
  const owner = controllerOwnerKey<ReplicaSet>(deploymentKind);
  return (replicaSet) => {
    if (controllerOf(replicaSet)) return owner(replicaSet);
    return deployments
      .list({ namespace: replicaSet.metadata?.namespace ?? "" })
      .filter((deployment) => selects(deployment.spec?.selector, replicaSet))
      .map(objectKey);
  };
}
