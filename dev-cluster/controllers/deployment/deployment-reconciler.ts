import {
  type Clock,
  type EventRecorder,
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
import { type Deployment, deploymentKind, type Pod, type ReplicaSet } from "../kinds.js";
import { claimChildren } from "../ownership/claim.js";
import { claimCandidates, controllerUidIndex } from "../ownership/controller-ref.js";
import { labelSelectorOf } from "../ownership/label-selector.js";
import { calculateStatus, setPausedCondition, stuckCheckAfterMs } from "./deployment-status.js";
import { proportionalSync } from "./proportional-scale.js";
import { rolloutRecreate } from "./recreate.js";
import { isScalingEvent, splitNewAndOld } from "./replica-set-groups.js";
import { rolloutRolling } from "./rolling-update.js";
import { type RolloutContext, writeDeployment } from "./rollout-context.js";

export interface DeploymentReconcilerDeps {
  deployments: SharedInformer<Deployment>;
  /** Indexed with ownershipIndexers (claimCandidates reads them). */
  replicaSets: SharedInformer<ReplicaSet>;
  /** Indexed with ownershipIndexers: Recreate reads the pods each ReplicaSet controls. */
  pods: SharedInformer<Pod>;
  deploymentClient: ResourceClient<Deployment>;
  replicaSetClient: ResourceClient<ReplicaSet>;
  events: EventRecorder;
  clock: Clock;
}

/**
 * One reconcile of one Deployment (kube's syncDeployment): claims its ReplicaSets, takes one
 * step (status only, a resize, or a rollout step of its strategy), and writes the Deployment once.
 */
export class DeploymentReconciler {
  readonly #deps: DeploymentReconcilerDeps;

  constructor(deps: DeploymentReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { deployments, replicaSets, pods, deploymentClient, replicaSetClient, events, clock } = this.#deps;
    const original = deployments.get(request.key);
    if (!original) return {};
    const rollout: RolloutContext = {
      deployment: mutableCopy<Deployment>(original),
      replicaSets: replicaSetClient,
      deployments: deploymentClient,
      events,
      nowMs: clock.now(),
      podsOf: (replicaSet) => pods.byIndex(controllerUidIndex, replicaSet.metadata?.uid ?? ""),
    };
    const selector = labelSelectorOf(original.spec?.selector);
    if (isEmptySelector(selector)) {
      rollout.deployment.status ??= {};
      events.warning(
        original,
        "SelectingAll",
        "This deployment is selecting all pods. A non-empty selector is required.",
      );
      rollout.deployment.status.observedGeneration = original.metadata?.generation ?? 0;
      const changed = !jsonEqual(original.status, rollout.deployment.status);
      await unlessStale(() => writeDeployment(rollout, original, changed), request.log, "deployment update");
      return {};
    }
    const owned = await claimChildren<ReplicaSet>({
      owner: original,
      ownerKind: deploymentKind,
      selector,
      candidates: claimCandidates(replicaSets, original),
      children: replicaSetClient,
    });
    await this.#step(rollout, original, owned);
    const status = rollout.deployment.status ?? {};
    const changed = !jsonEqual(original.status ?? {}, status);
    await unlessStale(() => writeDeployment(rollout, original, changed), request.log, "deployment update");
    const after = stuckCheckAfterMs(rollout.deployment, status, rollout.nowMs);
    return after === undefined ? {} : { requeueAfterMs: after };
  }

  /** Chooses what this sync does, as syncDeployment does: status only, a resize, or a rollout step. */
  async #step(
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
}
