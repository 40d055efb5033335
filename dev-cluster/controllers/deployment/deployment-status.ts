import { type Frozen, removeCondition } from "../../../runtime/index.js";
import type { Deployment, ReplicaSet } from "../kinds.js";
import { resolveFenceposts } from "../rollout/int-or-percent.js";
import {
  conditionOf,
  type DeploymentStatus,
  newCondition,
  reasons,
  setCondition,
  statusOf,
} from "./deployment-conditions.js";
import { actualReplicas, availableReplicas, readyReplicas, wantedReplicas } from "./replica-set-groups.js";

type RS = Frozen<ReplicaSet>;

/** maxSurge as a count (0 unless RollingUpdate). */
export function maxSurgeOf(deployment: Frozen<Deployment>): number {
  if (deployment.spec?.strategy?.type === "Recreate") return 0;
  const rolling = deployment.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge, rolling?.maxUnavailable, deployment.spec?.replicas ?? 1).surge;
}

/** maxUnavailable as a count, never above the replicas (0 unless RollingUpdate). */
export function maxUnavailableOf(deployment: Frozen<Deployment>): number {
  const replicas = deployment.spec?.replicas ?? 1;
  if (deployment.spec?.strategy?.type === "Recreate" || replicas === 0) return 0;
  const rolling = deployment.spec?.strategy?.rollingUpdate;
  return Math.min(
    resolveFenceposts(rolling?.maxSurge, rolling?.maxUnavailable, replicas).unavailable,
    replicas,
  );
}

export function progressDeadlineSeconds(deployment: Frozen<Deployment>): number | undefined {
  const deadline = deployment.spec?.progressDeadlineSeconds;
  return deadline === undefined || deadline >= 2 ** 31 - 1 ? undefined : deadline;
}

/**
 * The status the ReplicaSets imply (calculateStatus): counts summed over them, the conditions
 * carried over from `deployment` (a working copy that may hold new ones), and Available set
 * from whether enough replicas are available.
 */
export function calculateStatus(
  deployment: Frozen<Deployment>,
  all: readonly (RS | undefined)[],
  newReplicaSet: RS | undefined,
  nowMs: number,
): DeploymentStatus {
  const available = availableReplicas(all);
  const status: DeploymentStatus = {
    observedGeneration: deployment.metadata?.generation ?? 0,
    replicas: actualReplicas(all),
    updatedReplicas: actualReplicas([newReplicaSet]),
    readyReplicas: readyReplicas(all),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, wantedReplicas(all) - available),
    conditions: (deployment.status?.conditions ?? []).map((condition) => ({ ...condition })),
  };
  if (deployment.status?.collisionCount !== undefined)
    status.collisionCount = deployment.status.collisionCount;
  if (available >= (deployment.spec?.replicas ?? 1) - maxUnavailableOf(deployment)) {
    setCondition(
      status,
      newCondition(
        "Available",
        "True",
        reasons.minimumAvailable,
        "Deployment has minimum availability.",
        nowMs,
      ),
    );
  } else {
    setCondition(
      status,
      newCondition(
        "Available",
        "False",
        reasons.minimumUnavailable,
        "Deployment does not have minimum availability.",
        nowMs,
      ),
    );
  }
  return status;
}

/** All replicas updated, available, and nothing old left (DeploymentComplete). */
export function isComplete(deployment: Frozen<Deployment>, status: DeploymentStatus): boolean {
  const replicas = deployment.spec?.replicas ?? 1;
  return (
    status.updatedReplicas === replicas &&
    status.replicas === replicas &&
    status.availableReplicas === replicas &&
    (status.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 0)
  );
}

/** The new status shows progress over the last one (DeploymentProgressing). */
function isProgressing(deployment: Frozen<Deployment>, status: DeploymentStatus): boolean {
  const old = deployment.status ?? {};
  const oldReplicasNow = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  const oldReplicasBefore = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    oldReplicasNow < oldReplicasBefore ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** No progress within progressDeadlineSeconds of the last one (DeploymentTimedOut). */
function hasTimedOut(deployment: Frozen<Deployment>, status: DeploymentStatus, nowMs: number): boolean {
  const deadline = progressDeadlineSeconds(deployment);
  const condition = conditionOf(status, "Progressing");
  if (deadline === undefined || !condition) return false;
  if (condition.reason === reasons.newReplicaSetAvailable) return false;
  if (condition.reason === reasons.timedOut) return true;
  const from = Date.parse(condition.lastUpdateTime ?? "");
  return !Number.isNaN(from) && from + deadline * 1000 < nowMs;
}

/**
 * The status after a rollout step (syncRolloutStatus): counts, Available, and Progressing —
 * NewReplicaSetAvailable once complete, ReplicaSetUpdated while it moves, ProgressDeadlineExceeded
 * when it stopped moving for too long.
 */
export function rolloutStatus(
  deployment: Frozen<Deployment>,
  all: readonly (RS | undefined)[],
  newReplicaSet: RS | undefined,
  nowMs: number,
): DeploymentStatus {
  const status = calculateStatus(deployment, all, newReplicaSet, nowMs);
  if (progressDeadlineSeconds(deployment) === undefined) {
    status.conditions = removeCondition(status.conditions, "Progressing");
    return status;
  }
  const current = conditionOf(deployment.status, "Progressing");
  const settled =
    status.replicas === status.updatedReplicas && current?.reason === reasons.newReplicaSetAvailable;
  if (settled) return status;
  const subject = newReplicaSet
    ? `ReplicaSet "${newReplicaSet.metadata?.name ?? ""}"`
    : `Deployment "${deployment.metadata?.name ?? ""}"`;
  if (isComplete(deployment, status)) {
    setCondition(
      status,
      newCondition(
        "Progressing",
        "True",
        reasons.newReplicaSetAvailable,
        `${subject} has successfully progressed.`,
        nowMs,
      ),
    );
  } else if (isProgressing(deployment, status)) {
    const condition = newCondition(
      "Progressing",
      "True",
      reasons.replicaSetUpdated,
      `${subject} is progressing.`,
      nowMs,
    );
    // Progress refreshes lastUpdateTime (the deadline counts from it) but is no transition.
    if (current?.status === "True" && current.lastTransitionTime)
      condition.lastTransitionTime = current.lastTransitionTime;
    status.conditions = [...removeCondition(status.conditions, "Progressing"), condition];
  } else if (hasTimedOut(deployment, status, nowMs)) {
    setCondition(
      status,
      newCondition("Progressing", "False", reasons.timedOut, `${subject} has timed out progressing.`, nowMs),
    );
  }
  return status;
}

/**
 * When to look again at a rollout that is progressing but not complete: when its deadline
 * passes, no event would tell (requeueStuckDeployment).
 */
export function stuckCheckAfterMs(
  deployment: Frozen<Deployment>,
  status: DeploymentStatus,
  nowMs: number,
): number | undefined {
  const deadline = progressDeadlineSeconds(deployment);
  const condition = conditionOf(status, "Progressing");
  if (deadline === undefined || condition?.status !== "True" || isComplete(deployment, status))
    return undefined;
  if (condition.reason === reasons.newReplicaSetAvailable) return undefined;
  const from = Date.parse(condition.lastUpdateTime ?? "");
  if (Number.isNaN(from)) return undefined;
  return Math.max(1000, from + deadline * 1000 - nowMs + 1000);
}

/** The Progressing condition while paused or just resumed (checkPausedConditions); true when it changed. */
export function setPausedCondition(deployment: Deployment, nowMs: number): boolean {
  if (progressDeadlineSeconds(deployment) === undefined) return false;
  const status = statusOf(deployment);
  const current = conditionOf(status, "Progressing");
  if (current?.reason === reasons.timedOut) return false;
  const pausedShown = current?.reason === reasons.paused;
  if (deployment.spec?.paused && !pausedShown) {
    setCondition(
      status,
      newCondition("Progressing", "Unknown", reasons.paused, "Deployment is paused", nowMs),
    );
    return true;
  }
  if (!deployment.spec?.paused && pausedShown) {
    setCondition(
      status,
      newCondition("Progressing", "Unknown", reasons.resumed, "Deployment is resumed", nowMs),
    );
    return true;
  }
  return false;
}
