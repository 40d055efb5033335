import { type Frozen, findCondition, removeCondition, wireTime } from "../../../runtime/index.js";
import type { Deployment } from "../kinds.js";

export type DeploymentStatus = NonNullable<Deployment["status"]>;
export type DeploymentCondition = NonNullable<DeploymentStatus["conditions"]>[number];

/** Condition reasons, spelled as kube's deployment controller spells them (kubectl and tools match on them). */
export const reasons = {
  newReplicaSetCreated: "NewReplicaSetCreated",
  foundNewReplicaSet: "FoundNewReplicaSet",
  replicaSetUpdated: "ReplicaSetUpdated",
  newReplicaSetAvailable: "NewReplicaSetAvailable",
  timedOut: "ProgressDeadlineExceeded",
  paused: "DeploymentPaused",
  resumed: "DeploymentResumed",
  minimumAvailable: "MinimumReplicasAvailable",
  minimumUnavailable: "MinimumReplicasUnavailable",
} as const;

export function newCondition(
  type: string,
  status: "True" | "False" | "Unknown",
  reason: string,
  message: string,
  nowMs: number,
): DeploymentCondition {
  const at = wireTime(nowMs);
  return { type, status, reason, message, lastUpdateTime: at, lastTransitionTime: at };
}

export function conditionOf(
  status: Frozen<DeploymentStatus> | undefined,
  type: string,
): Frozen<DeploymentCondition> | undefined {
  return findCondition(status?.conditions, type);
}

/**
 * Sets a condition the way SetDeploymentCondition does: an existing one with the same status and
 * reason is left alone (its times included); a change of reason keeps the transition time. Unlike
 * runtime's setCondition it moves the condition to the end, as kube's deployment controller does.
 */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = conditionOf(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status && current.lastTransitionTime)
    next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...removeCondition(status.conditions, condition.type), next];
}

/** The working copy's status, created empty when missing, to set conditions on. */
export function statusOf(deployment: Deployment): DeploymentStatus {
  deployment.status ??= {};
  return deployment.status;
}
