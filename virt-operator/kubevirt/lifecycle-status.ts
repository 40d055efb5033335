import type { KubeVirtPhase, KubeVirtStatus } from "../../api/index.js";
import { type ConditionUpdate, type Frozen, setConditions } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";

/**
 * Statuses outside a normal install: a CR that is refused, an install whose strategy cannot be
 * rendered, and the steps of an uninstall. Each says the same in Available, Progressing and
 * Degraded, so that `kubectl wait --for condition=...` and a human both read it.
 */

export const DELETION_BLOCKED = "DeletionBlocked";

/** A KubeVirt that is not the active one: nothing is installed for it. */
export function refusedStatus(
  kubevirt: Frozen<KubeVirt>,
  reason: string,
  message: string,
  nowMs: number,
): KubeVirtStatus {
  return withLifecycleConditions(kubevirt, undefined, nowMs, [
    { type: "Available", status: "False", reason, message },
    { type: "Progressing", status: "False", reason, message },
    { type: "Degraded", status: "True", reason, message },
  ]);
}

/** The strategy could not be rendered (or holds what the operator cannot apply). */
export function invalidStrategyStatus(
  kubevirt: Frozen<KubeVirt>,
  message: string,
  nowMs: number,
): KubeVirtStatus {
  const reason = "InvalidStrategy";
  return withLifecycleConditions(kubevirt, kubevirt.status?.phase ?? "Deploying", nowMs, [
    keptAvailable(kubevirt) ?? { type: "Available", status: "False", reason, message },
    { type: "Progressing", status: "False", reason, message },
    { type: "Degraded", status: "True", reason, message },
  ]);
}

/** An uninstall waits for workloads the uninstall strategy does not allow to remove. */
export function deletionBlockedStatus(
  kubevirt: Frozen<KubeVirt>,
  message: string,
  nowMs: number,
): KubeVirtStatus {
  return withLifecycleConditions(kubevirt, "Deleting", nowMs, [
    // The components are still installed and serve the workloads that block the uninstall.
    keptAvailable(kubevirt) ?? { type: "Available", status: "False", reason: DELETION_BLOCKED, message },
    { type: "Progressing", status: "False", reason: DELETION_BLOCKED, message },
    { type: "Degraded", status: "True", reason: DELETION_BLOCKED, message },
  ]);
}

/** An uninstall under way: workloads or components are being removed. */
export function deletingStatus(kubevirt: Frozen<KubeVirt>, message: string, nowMs: number): KubeVirtStatus {
  const reason = "Deleting";
  return withLifecycleConditions(kubevirt, "Deleting", nowMs, [
    { type: "Available", status: "False", reason, message },
    { type: "Progressing", status: "True", reason, message },
    { type: "Degraded", status: "False", reason, message },
  ]);
}

/** Everything the operator installed is gone; the finalizer goes next. */
export function deletedStatus(kubevirt: Frozen<KubeVirt>, nowMs: number): KubeVirtStatus {
  const reason = "Deleted";
  const message = "Every object virt-operator installed was deleted.";
  return withLifecycleConditions(kubevirt, "Deleted", nowMs, [
    { type: "Available", status: "False", reason, message },
    { type: "Progressing", status: "False", reason, message },
    { type: "Degraded", status: "False", reason, message },
  ]);
}

function keptAvailable(kubevirt: Frozen<KubeVirt>): ConditionUpdate | undefined {
  const available = kubevirt.status?.conditions?.find((condition) => condition.type === "Available");
  if (!available) return undefined;
  return {
    type: available.type,
    status: available.status,
    reason: available.reason ?? "",
    message: available.message ?? "",
  };
}

function withLifecycleConditions(
  kubevirt: Frozen<KubeVirt>,
  phase: KubeVirtPhase | undefined,
  nowMs: number,
  updates: ConditionUpdate[],
): KubeVirtStatus {
  const status = structuredClone(kubevirt.status ?? {}) as KubeVirtStatus;
  if (phase) status.phase = phase;
  status.conditions = setConditions(kubevirt.status?.conditions, updates, nowMs, "onChange");
  return status;
}
