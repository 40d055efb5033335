import { type Frozen, mutableCopy, wireTime } from "../../runtime/index.js";
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

/**
 * The pod with PodScheduled=False/Unschedulable carrying `message`, or undefined when the pod
 * already says exactly that (status is written only when it changes). The transition time moves
 * only when the status does, as podutil.UpdatePodCondition does.
 */
export function withUnschedulableCondition(pod: Frozen<Pod>, message: string, now: number): Pod | undefined {
  const current = pod.status?.conditions?.find((condition) => condition.type === "PodScheduled");
  if (current?.status === "False" && current.reason === "Unschedulable" && current.message === message) {
    return undefined;
  }
  const condition: PodCondition = {
    type: "PodScheduled",
    status: "False",
    reason: "Unschedulable",
    message,
    lastTransitionTime:
      current?.status === "False" && current.lastTransitionTime ? current.lastTransitionTime : wireTime(now),
  };
  const updated = mutableCopy<Pod>(pod);
  const others = (updated.status?.conditions ?? []).filter((entry) => entry.type !== "PodScheduled");
  updated.status = { ...updated.status, conditions: [...others, condition] };
  return updated;
}
