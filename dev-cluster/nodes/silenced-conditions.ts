import { type Frozen, mutableCopy, wireTime } from "../../runtime/index.js";
import type { Node, NodeCondition } from "./kinds.js";
import { KUBELET_CONDITION_TYPES } from "./node-status.js";

/**
 * The kubelet's conditions turned Unknown: nobody knows any more how the node is. Written by
 * hand rather than with runtime's setCondition: node conditions carry lastHeartbeatTime (kept as
 * the kubelet last wrote it), not lastProbeTime, and every kubelet condition moves to Unknown
 * with a new transition time, as the node lifecycle controller does.
 */
export function silencedConditions(node: Frozen<Node>, now: number): NodeCondition[] {
  const conditions = mutableCopy<NodeCondition[]>(node.status?.conditions ?? []);
  const unknown = (condition: NodeCondition, never: boolean): NodeCondition => ({
    ...condition,
    status: "Unknown",
    reason: never ? "NodeStatusNeverUpdated" : "NodeStatusUnknown",
    message: never ? "Kubelet never posted node status." : "Kubelet stopped posting node status.",
    lastTransitionTime: wireTime(now),
  });
  const updated = conditions.map((condition) =>
    KUBELET_CONDITION_TYPES.includes(condition.type) ? unknown(condition, false) : condition,
  );
  for (const type of KUBELET_CONDITION_TYPES) {
    if (updated.some((condition) => condition.type === type)) continue;
    updated.push(unknown({ type, status: "Unknown", lastHeartbeatTime: wireTime(now) }, true));
  }
  return updated;
}
