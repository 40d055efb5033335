import { type Frozen, isNotFound } from "../../../runtime/index.js";
import type { ReplicaSet } from "../kinds.js";
import { byRevision, specReplicas } from "./replica-set-groups.js";
import type { RolloutContext } from "./rollout-context.js";

/**
 * Deletes the oldest old ReplicaSets beyond revisionHistoryLimit (cleanupDeployment), and only
 * empty ones whose controller has seen their last change: history `kubectl rollout undo` no
 * longer needs.
 */
export async function cleanUpHistory(
  context: RolloutContext,
  olds: readonly Frozen<ReplicaSet>[],
): Promise<void> {
  const limit = context.deployment.spec?.revisionHistoryLimit;
  if (limit === undefined) return;
  const alive = olds.filter((replicaSet) => !replicaSet.metadata?.deletionTimestamp).sort(byRevision);
  const surplus = alive.length - limit;
  for (const replicaSet of alive.slice(0, Math.max(0, surplus))) {
    const empty = specReplicas(replicaSet) === 0 && (replicaSet.status?.replicas ?? 0) === 0;
    const observed = (replicaSet.metadata?.generation ?? 0) <= (replicaSet.status?.observedGeneration ?? 0);
    if (!empty || !observed) continue;
    try {
      await context.replicaSets.delete(
        { namespace: replicaSet.metadata?.namespace ?? "", name: replicaSet.metadata?.name ?? "" },
        { preconditions: { uid: replicaSet.metadata?.uid ?? "" } },
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
