import type { Frozen } from "../../runtime/index.js";
import type { Node, Pod } from "./kinds.js";
import { isTerminal } from "./scheduling-cache.js";

function schedulingView(node: Frozen<Node>): string {
  return JSON.stringify([
    node.metadata?.labels ?? {},
    node.spec?.taints ?? [],
    node.spec?.unschedulable ?? false,
    node.status?.allocatable ?? {},
    node.status?.conditions?.find((condition) => condition.type === "Ready")?.status ?? "",
  ]);
}

/**
 * Whether a node change can make an unschedulable pod fit (kube-scheduler's queueing hints, in
 * one function). Heartbeats change only timestamps and must not wake every pending pod.
 */
export function nodeChangeMayHelp(previous: Frozen<Node>, current: Frozen<Node>): boolean {
  return schedulingView(previous) !== schedulingView(current);
}

/** A bound pod that stops counting (finished) frees its node's resources. */
export function podChangeFreesResources(previous: Frozen<Pod>, current: Frozen<Pod>): boolean {
  return Boolean(previous.spec?.nodeName) && !isTerminal(previous) && isTerminal(current);
}

export function podCountedOnNode(pod: Frozen<Pod>): boolean {
  return Boolean(pod.spec?.nodeName) && !isTerminal(pod);
}
