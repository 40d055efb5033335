import type { Frozen } from "../../../runtime/index.js";
import type { Pod } from "../kinds.js";
import { createdAt, isPodReady, readySince, restartCount } from "./pod-state.js";

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * Orders pods so that the ones to delete first come first, as kube's ActivePodsWithRanks does
 * when a ReplicaSet scales down: unscheduled before scheduled, Pending before Unknown before
 * Running, not ready before ready, pods sharing a node with more of their siblings first, ready
 * for a shorter time first, more restarts first, newer first.
 */
export function inDeletionOrder(pods: readonly Frozen<Pod>[]): Frozen<Pod>[] {
  const perNode = new Map<string, number>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (node) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const rank = (pod: Frozen<Pod>): number => perNode.get(pod.spec?.nodeName ?? "") ?? 0;
  return [...pods].sort((a, b) => compareForDeletion(a, b, rank));
}

function compareForDeletion(a: Frozen<Pod>, b: Frozen<Pod>, rank: (pod: Frozen<Pod>) => number): number {
  const assigned = Number(!!a.spec?.nodeName) - Number(!!b.spec?.nodeName);
  if (assigned !== 0) return assigned;
  const phase =
    (phaseRank[a.status?.phase ?? "Pending"] ?? 0) - (phaseRank[b.status?.phase ?? "Pending"] ?? 0);
  if (phase !== 0) return phase;
  const ready = Number(isPodReady(a)) - Number(isPodReady(b));
  if (ready !== 0) return ready;
  const siblings = rank(b) - rank(a);
  if (siblings !== 0) return siblings;
  if (isPodReady(a) && isPodReady(b)) {
    const readyFor = (readySince(b) ?? 0) - (readySince(a) ?? 0);
    if (readyFor !== 0) return readyFor;
  }
  const restarts = restartCount(b) - restartCount(a);
  if (restarts !== 0) return restarts;
  return createdAt(b) - createdAt(a);
}
