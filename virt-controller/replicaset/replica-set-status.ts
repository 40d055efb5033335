import { type StoredVirtualMachineInstanceReplicaSet, VMIRS_CONDITION_TYPES } from "../../api/index.js";
import { type Frozen, mutableCopy, wireTime } from "../../runtime/index.js";

type ReplicaSet = Frozen<StoredVirtualMachineInstanceReplicaSet>;
type ReplicaSetStatus = NonNullable<StoredVirtualMachineInstanceReplicaSet["status"]>;
type Condition = NonNullable<ReplicaSetStatus["conditions"]>[number];

/** A create or delete that failed in this reconcile: the ReplicaFailure condition's reason and message. */
export interface ReplicaFailure {
  reason: "FailedCreate" | "FailedDelete";
  message: string;
}

export interface StatusInput {
  replicaSet: ReplicaSet;
  activeCount: number;
  readyCount: number;
  selectorText: string;
  failure: ReplicaFailure | undefined;
  nowMs: number;
}

/**
 * The replica set's status (KubeVirt's updateStatus), computed from scratch: the active and ready
 * counts, the selector's text form, ReplicaPaused while `spec.paused`, ReplicaFailure while a
 * create or delete fails. A condition that holds on keeps its time and first message, as
 * KubeVirt keeps it; other conditions are left as they are.
 */
export function replicaSetStatus(input: StatusInput): ReplicaSetStatus {
  const { replicaSet, failure, nowMs } = input;
  const previous = mutableCopy<Condition[]>(replicaSet.status?.conditions ?? []);
  const conditions = previous.filter(
    (condition) =>
      condition.type !== VMIRS_CONDITION_TYPES.replicaPaused &&
      condition.type !== VMIRS_CONDITION_TYPES.replicaFailure,
  );
  const kept = (type: string) => previous.find((condition) => condition.type === type);
  if (replicaSet.spec.paused === true) {
    conditions.push(
      kept(VMIRS_CONDITION_TYPES.replicaPaused) ?? {
        type: VMIRS_CONDITION_TYPES.replicaPaused,
        status: "True",
        reason: "Paused",
        message: "Controller got paused",
        lastProbeTime: null,
        lastTransitionTime: wireTime(nowMs),
      },
    );
  }
  if (failure) {
    conditions.push(
      kept(VMIRS_CONDITION_TYPES.replicaFailure) ?? {
        type: VMIRS_CONDITION_TYPES.replicaFailure,
        status: "True",
        reason: failure.reason,
        message: failure.message,
        lastProbeTime: null,
        lastTransitionTime: wireTime(nowMs),
      },
    );
  }
  const status: ReplicaSetStatus = {
    ...mutableCopy<ReplicaSetStatus>(replicaSet.status ?? {}),
    replicas: input.activeCount,
    readyReplicas: input.readyCount,
    labelSelector: input.selectorText,
    conditions,
  };
  if (conditions.length === 0) delete status.conditions;
  return status;
}

/** Whether the status says paused (the ReplicaPaused condition): a change is an event. */
export function showsPaused(replicaSet: ReplicaSet): boolean {
  return (replicaSet.status?.conditions ?? []).some(
    (condition) => condition.type === VMIRS_CONDITION_TYPES.replicaPaused,
  );
}
