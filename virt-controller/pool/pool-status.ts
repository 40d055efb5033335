/**
 * A pool's status as KubeVirt's pool controller writes it: every VM of the pool counts in
 * `replicas` (those being deleted too, until they are gone), `readyReplicas` those whose Ready
 * condition is True, `labelSelector` the selector's text for the scale subresource, and the
 * ReplicaFailure (the last sync's error) and ReplicaPaused conditions.
 */
import {
  POOL_CONDITION_TYPES,
  type StoredVirtualMachine,
  type StoredVirtualMachinePool,
  type VirtualMachinePoolStatus,
} from "../../api/index.js";
import {
  type Frozen,
  findCondition,
  formatLabelSelector,
  mutableCopy,
  removeCondition,
  type StatusCondition,
  setCondition,
} from "../../runtime/index.js";

/** What went wrong in a sync: the ReplicaFailure condition's reason (FailedScaleOut, ...) and message. */
export interface SyncFailure {
  readonly reason: string;
  readonly message: string;
}

export function poolStatus(
  pool: Frozen<StoredVirtualMachinePool>,
  vms: readonly Frozen<StoredVirtualMachine>[],
  failure: SyncFailure | undefined,
  nowMs: number,
): VirtualMachinePoolStatus {
  let conditions: StatusCondition[] = mutableCopy<StatusCondition[]>(pool.status?.conditions ?? []);
  const { replicaFailure, replicaPaused } = POOL_CONDITION_TYPES;
  if (failure) {
    conditions = setCondition(conditions, { type: replicaFailure, status: "True", ...failure }, nowMs);
  } else {
    conditions = removeCondition(conditions, replicaFailure);
  }
  if (pool.spec.paused === true) {
    if (!findCondition(conditions, replicaPaused)) {
      conditions = setCondition(
        conditions,
        {
          type: replicaPaused,
          status: "True",
          reason: "SuccessfulPaused",
          message: "Pool controller is paused",
        },
        nowMs,
      );
    }
  } else {
    conditions = removeCondition(conditions, replicaPaused);
  }
  const ready = vms.filter(
    (vm) => vm.status?.conditions?.find((condition) => condition.type === "Ready")?.status === "True",
  );
  const status: VirtualMachinePoolStatus = {
    replicas: vms.length,
    readyReplicas: ready.length,
    labelSelector: formatLabelSelector(pool.spec.selector),
  };
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}
