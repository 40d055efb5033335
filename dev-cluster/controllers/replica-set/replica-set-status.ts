import { type Frozen, findCondition, removeCondition, wireTime } from "../../../runtime/index.js";
import type { Pod, ReplicaSet } from "../kinds.js";
import { isPodAvailable, isPodReady } from "../pods/pod-state.js";

export type ReplicaSetStatus = NonNullable<ReplicaSet["status"]>;
type ReplicaSetCondition = NonNullable<ReplicaSetStatus["conditions"]>[number];

/** Why the last attempt to create or delete pods failed, for the ReplicaFailure condition. */
export interface ReplicaFailure {
  reason: "FailedCreate" | "FailedDelete";
  message: string;
}

/**
 * A ReplicaSet's status from the pods it owns (calculateStatus): replicas, pods carrying all
 * the template's labels, ready ones, ones ready for minReadySeconds, and a ReplicaFailure
 * condition while creates or deletes fail.
 */
export function replicaSetStatus(
  replicaSet: Frozen<ReplicaSet>,
  pods: readonly Frozen<Pod>[],
  failure: ReplicaFailure | undefined,
  nowMs: number,
): ReplicaSetStatus {
  const templateLabels = Object.entries(replicaSet.spec?.template?.metadata?.labels ?? {});
  const minReadySeconds = replicaSet.spec?.minReadySeconds ?? 0;
  const status: ReplicaSetStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: pods.filter((pod) =>
      templateLabels.every(([key, value]) => pod.metadata?.labels?.[key] === value),
    ).length,
    readyReplicas: pods.filter(isPodReady).length,
    availableReplicas: pods.filter((pod) => isPodAvailable(pod, minReadySeconds, nowMs)).length,
    observedGeneration: replicaSet.metadata?.generation ?? 0,
  };
  const conditions = replicaFailureConditions(replicaSet.status?.conditions ?? [], failure, nowMs);
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}

/**
 * The ReplicaFailure condition set or cleared, with runtime's condition helpers. A failure that
 * changes its reason or message keeps lastTransitionTime: the status stays True (kube's rule).
 * Not runtime's setCondition: a ReplicaSetCondition has no lastProbeTime, and the condition
 * goes last, where kube's SetCondition puts it.
 */
function replicaFailureConditions(
  current: readonly Frozen<ReplicaSetCondition>[],
  failure: ReplicaFailure | undefined,
  nowMs: number,
): ReplicaSetCondition[] {
  const others = removeCondition(current, "ReplicaFailure");
  if (!failure) return others;
  const previous = findCondition(current, "ReplicaFailure");
  const stillFailing = previous?.status === "True";
  return [
    ...others,
    {
      type: "ReplicaFailure",
      status: "True",
      reason: failure.reason,
      message: failure.message,
      lastTransitionTime: (stillFailing && previous.lastTransitionTime) || wireTime(nowMs),
    },
  ];
}

/**
 * When to look again: a ReplicaSet with minReadySeconds whose ready pods are not all available
 * yet has no event coming when they become so.
 */
export function nextAvailabilityCheckMs(
  replicaSet: Frozen<ReplicaSet>,
  status: ReplicaSetStatus,
): number | undefined {
  const minReadySeconds = replicaSet.spec?.minReadySeconds ?? 0;
  const wanted = replicaSet.spec?.replicas ?? 1;
  if (minReadySeconds <= 0 || status.readyReplicas !== wanted || status.availableReplicas === wanted)
    return undefined;
  return minReadySeconds * 1000;
}
