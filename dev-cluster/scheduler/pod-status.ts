import {
  type Frozen,
  findCondition,
  hasCondition,
  mutableCopy,
  type StatusCondition,
  setCondition,
} from "../../runtime/index.js";
import type { Pod, PodCondition } from "./kinds.js";
import { isTerminal } from "./scheduling-cache.js";

/** A pod this scheduler should place: ours by name, not bound, not gated, not going away. */
export function awaitsScheduling(pod: Frozen<Pod>, schedulerName: string): boolean {
  const spec = pod.spec;
  return (
    (spec?.schedulerName ?? "default-scheduler") === schedulerName &&
    !spec?.nodeName &&
    !pod.metadata?.deletionTimestamp &&
    !isTerminal(pod) &&
    (spec?.schedulingGates?.length ?? 0) === 0
  );
}

/** Why PodScheduled is False: no node fits, or the cycle failed on the way (a binding step). */
export type NotScheduledReason = "Unschedulable" | "SchedulerError";

/**
 * The pod with PodScheduled=False/`reason` (Unschedulable by default) carrying `message`, or
 * undefined when the pod already says exactly that (status is written only when it changes). Set with runtime's
 * setCondition, as podutil.UpdatePodCondition does: in place, the transition time moving only
 * with the status, lastProbeTime null (as the binding writes it).
 */
export function withUnschedulableCondition(
  pod: Frozen<Pod>,
  message: string,
  now: number,
  reason: NotScheduledReason = "Unschedulable",
): Pod | undefined {
  // kubernetes-models types a condition's status as any string and its times as never null; the
  // wire values are the ones runtime's StatusCondition describes.
  const conditions = pod.status?.conditions as readonly StatusCondition[] | undefined;
  if (
    hasCondition(conditions, "PodScheduled", "False", reason) &&
    findCondition(conditions, "PodScheduled")?.message === message
  ) {
    return undefined;
  }
  const updated = mutableCopy<Pod>(pod);
  const next = setCondition(conditions, { type: "PodScheduled", status: "False", reason, message }, now);
  updated.status = { ...updated.status, conditions: next as PodCondition[] };
  return updated;
}
