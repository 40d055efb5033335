import type { Frozen } from "../../../runtime/index.js";
import type { ReplicaSet } from "../kinds.js";
import { isComplete, maxUnavailableOf, rolloutStatus } from "./deployment-status.js";
import { cleanUpHistory } from "./history-cleanup.js";
import { newReplicaSetReplicas, syncReplicaSetGenerations } from "./new-replica-set.js";
import { availableReplicas, byCreation, specReplicas, wantedReplicas } from "./replica-set-groups.js";
import { type RolloutContext, scaleReplicaSet } from "./rollout-context.js";

type RS = Frozen<ReplicaSet>;

/**
 * One step of a RollingUpdate (rolloutRolling): grow the new ReplicaSet as far as maxSurge
 * allows; if it did not grow, shrink the old ones as far as maxUnavailable allows; once
 * complete, trim the history. Each step ends with the status; the next step comes with the
 * next event (a pod becoming available, a ReplicaSet's status).
 */
export async function rolloutRolling(context: RolloutContext, replicaSets: readonly RS[]): Promise<void> {
  const { deployment, nowMs } = context;
  const generations = await syncReplicaSetGenerations(context, replicaSets, true);
  const { oldReplicaSets } = generations;
  const newReplicaSet = generations.newReplicaSet;
  if (!newReplicaSet) throw new Error("no new ReplicaSet after creating it");
  const resized = await reconcileNewReplicaSet(context, [...oldReplicaSets, newReplicaSet], newReplicaSet);
  if (specReplicas(resized) !== specReplicas(newReplicaSet)) {
    deployment.status = rolloutStatus(deployment, [...oldReplicaSets, resized], resized, nowMs);
    return;
  }
  const shrunk = await reconcileOldReplicaSets(context, oldReplicaSets, resized);
  if (!shrunk.scaled && isComplete(deployment, deployment.status ?? {}))
    await cleanUpHistory(context, oldReplicaSets);
  deployment.status = rolloutStatus(deployment, [...shrunk.replicaSets, resized], resized, nowMs);
}

/** Grows (or, above the Deployment's size, shrinks) the new ReplicaSet; returns it as it now is. */
async function reconcileNewReplicaSet(
  context: RolloutContext,
  all: readonly RS[],
  newReplicaSet: RS,
): Promise<RS> {
  const desired = context.deployment.spec?.replicas ?? 1;
  const current = specReplicas(newReplicaSet);
  if (current === desired) return newReplicaSet;
  if (current > desired) return scaleReplicaSet(context, newReplicaSet, desired, "down");
  const wanted = newReplicaSetReplicas(context.deployment, all, newReplicaSet);
  return scaleReplicaSet(context, newReplicaSet, wanted, "up");
}

/**
 * Shrinks old ReplicaSets (reconcileOldReplicaSets): first their unavailable pods (they serve
 * nothing), then available ones, never below replicas - maxUnavailable available pods overall.
 * Returns the old ReplicaSets as they now are, and whether any shrank.
 */
async function reconcileOldReplicaSets(
  context: RolloutContext,
  olds: RS[],
  newReplicaSet: RS,
): Promise<{ replicaSets: RS[]; scaled: boolean }> {
  const unchanged = { replicaSets: olds, scaled: false };
  if (wantedReplicas(olds) === 0) return unchanged;
  const desired = context.deployment.spec?.replicas ?? 1;
  const minAvailable = desired - maxUnavailableOf(context.deployment);
  const newUnavailable = specReplicas(newReplicaSet) - (newReplicaSet.status?.availableReplicas ?? 0);
  const maxScaledDown = wantedReplicas([...olds, newReplicaSet]) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return unchanged;
  let changed = false;
  const cleaned: RS[] = [];
  let cleanedCount = 0;
  for (const replicaSet of [...olds].sort(byCreation)) {
    const unhealthy = specReplicas(replicaSet) - (replicaSet.status?.availableReplicas ?? 0);
    const count = Math.min(maxScaledDown - cleanedCount, unhealthy);
    if (count <= 0 || specReplicas(replicaSet) === 0) {
      cleaned.push(replicaSet);
      continue;
    }
    cleaned.push(await scaleReplicaSet(context, replicaSet, specReplicas(replicaSet) - count, "down"));
    cleanedCount += count;
    changed = true;
  }
  const afterHealthy = await scaleDownAvailable(context, cleaned, newReplicaSet, minAvailable);
  return { replicaSets: afterHealthy, scaled: changed || afterHealthy !== cleaned };
}

/** Takes available pods away from old ReplicaSets, oldest first, while availability stays above the minimum. */
async function scaleDownAvailable(
  context: RolloutContext,
  olds: RS[],
  newReplicaSet: RS,
  minAvailable: number,
): Promise<RS[]> {
  const available = availableReplicas([...olds, newReplicaSet]);
  if (available <= minAvailable) return olds;
  let budget = available - minAvailable;
  let changed = false;
  const result: RS[] = [];
  for (const replicaSet of [...olds].sort(byCreation)) {
    const size = specReplicas(replicaSet);
    if (budget <= 0 || size === 0) {
      result.push(replicaSet);
      continue;
    }
    const count = Math.min(size, budget);
    result.push(await scaleReplicaSet(context, replicaSet, size - count, "down"));
    budget -= count;
    changed = true;
  }
  return changed ? result : olds;
}
