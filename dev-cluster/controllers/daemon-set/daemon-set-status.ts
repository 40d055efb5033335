import type { Frozen } from "../../../runtime/index.js";
import type { DaemonSet, Node, Pod } from "../kinds.js";
import { isPodAvailable, isPodReady } from "../pods/pod-state.js";
import { controllerRevisionHashLabel } from "./daemon-pod.js";
import { scheduledThenOldest } from "./daemon-set-plan.js";
import { nodeVerdict } from "./node-eligibility.js";

export type DaemonSetStatus = NonNullable<DaemonSet["status"]>;

/**
 * A DaemonSet's status (updateDaemonSetStatus): per node that should run it, whether it has a
 * pod, whether that pod (the oldest) is ready, available and of the current revision; pods on
 * nodes that should not run it are misscheduled. observedGeneration moves only when the
 * controller acted on this generation (its expectations were met).
 */
export function daemonSetStatus(
  daemonSet: Frozen<DaemonSet>,
  nodes: readonly Frozen<Node>[],
  podsByNode: ReadonlyMap<string, readonly Frozen<Pod>[]>,
  hash: string,
  observed: boolean,
  nowMs: number,
): DaemonSetStatus {
  const minReadySeconds = daemonSet.spec?.minReadySeconds ?? 0;
  const counts = { desired: 0, current: 0, ready: 0, available: 0, updated: 0, misscheduled: 0 };
  for (const node of nodes) {
    const pods = podsByNode.get(node.metadata?.name ?? "") ?? [];
    if (!nodeVerdict(node, daemonSet).shouldRun) {
      if (pods.length > 0) counts.misscheduled++;
      continue;
    }
    counts.desired++;
    const pod = [...pods].sort(scheduledThenOldest)[0];
    if (!pod) continue;
    counts.current++;
    if (isPodReady(pod)) {
      counts.ready++;
      if (isPodAvailable(pod, minReadySeconds, nowMs)) counts.available++;
    }
    if (pod.metadata?.labels?.[controllerRevisionHashLabel] === hash) counts.updated++;
  }
  const status: DaemonSetStatus = {
    desiredNumberScheduled: counts.desired,
    currentNumberScheduled: counts.current,
    numberMisscheduled: counts.misscheduled,
    numberReady: counts.ready,
    observedGeneration: observed
      ? (daemonSet.metadata?.generation ?? 0)
      : (daemonSet.status?.observedGeneration ?? 0),
  };
  if (counts.updated > 0) status.updatedNumberScheduled = counts.updated;
  if (counts.available > 0) status.numberAvailable = counts.available;
  if (counts.desired - counts.available > 0) status.numberUnavailable = counts.desired - counts.available;
  if (daemonSet.status?.collisionCount !== undefined) status.collisionCount = daemonSet.status.collisionCount;
  if (daemonSet.status?.conditions)
    status.conditions = daemonSet.status.conditions.map((condition) => ({ ...condition }));
  return status;
}
