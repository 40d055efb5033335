import type { Frozen } from "../../../runtime/index.js";
import type { DaemonSet, Node, Pod } from "../kinds.js";
import { createdAt } from "../pods/pod-state.js";
import { nodeVerdict } from "./node-eligibility.js";

type PodsByNode = ReadonlyMap<string, readonly Frozen<Pod>[]>;

export interface DaemonPlan {
  /** Nodes that need a daemon pod. */
  create: string[];
  /** Pods to delete: extras, pods on nodes that no longer want them, pods on nodes that are gone. */
  delete: Frozen<Pod>[];
  /** Failed pods to replace (the caller applies a back-off per node before deleting them). */
  failed: { pod: Frozen<Pod>; node: string }[];
}

/**
 * What a DaemonSet's pods should become (manage + podsShouldBeOnNode): a pod on every node that
 * should run one and has none (a node whose pod is still terminating waits for it to go, so
 * that two never overlap); one pod per node at most (the oldest scheduled one stays); none on
 * nodes that no longer admit it, or that no longer exist.
 */
export function planDaemonPods(
  daemonSet: Frozen<DaemonSet>,
  nodes: readonly Frozen<Node>[],
  podsByNode: PodsByNode,
): DaemonPlan {
  const plan: DaemonPlan = { create: [], delete: [], failed: [] };
  const known = new Set<string>();
  for (const node of [...nodes].sort(byName)) {
    const name = node.metadata?.name ?? "";
    known.add(name);
    const verdict = nodeVerdict(node, daemonSet);
    const pods = podsByNode.get(name) ?? [];
    if (verdict.shouldRun && pods.length === 0) plan.create.push(name);
    else if (verdict.shouldContinueRunning) keepOne(pods, name, plan);
    else plan.delete.push(...pods.filter((pod) => !pod.metadata?.deletionTimestamp));
  }
  for (const [node, pods] of podsByNode) {
    if (!known.has(node)) plan.delete.push(...pods.filter((pod) => !pod.metadata?.deletionTimestamp));
  }
  return plan;
}

function keepOne(pods: readonly Frozen<Pod>[], node: string, plan: DaemonPlan): void {
  const running: Frozen<Pod>[] = [];
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (pod.status?.phase === "Failed") plan.failed.push({ pod, node });
    else running.push(pod);
  }
  plan.delete.push(...running.sort(scheduledThenOldest).slice(1));
}

/** Scheduled pods first, then the oldest, then by name (podByCreationTimestampAndPhase). */
export function scheduledThenOldest(a: Frozen<Pod>, b: Frozen<Pod>): number {
  const scheduled = Number(!!b.spec?.nodeName) - Number(!!a.spec?.nodeName);
  if (scheduled !== 0) return scheduled;
  return createdAt(a) - createdAt(b) || (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "");
}

function byName(a: Frozen<Node>, b: Frozen<Node>): number {
  return (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "");
}
