import type { Frozen } from "../../../runtime/index.js";
import type { ReplicaSet } from "../kinds.js";
import { isComplete, rolloutStatus } from "./deployment-status.js";
import { cleanUpHistory } from "./history-cleanup.js";
import { syncReplicaSetGenerations } from "./new-replica-set.js";
import { activeReplicaSets, specReplicas } from "./replica-set-groups.js";
import { type RolloutContext, scaleReplicaSet } from "./rollout-context.js";

type RS = Frozen<ReplicaSet>;

/**
 * One step of a Recreate rollout (rolloutRecreate): scale every old ReplicaSet to zero, wait
 * until none of their pods runs, then create the new ReplicaSet at full size.
 */
export async function rolloutRecreate(context: RolloutContext, replicaSets: readonly RS[]): Promise<void> {
  const { deployment, nowMs } = context;
  const existing = await syncReplicaSetGenerations(context, replicaSets, false);
  const olds = existing.oldReplicaSets;
  let scaledDown = false;
  const afterScaleDown: RS[] = [];
  for (const replicaSet of olds) {
    if (activeReplicaSets([replicaSet]).length === 0) {
      afterScaleDown.push(replicaSet);
      continue;
    }
    afterScaleDown.push(await scaleReplicaSet(context, replicaSet, 0, "down"));
    scaledDown = true;
  }
  if (scaledDown || oldPodsRunning(context, olds)) {
    deployment.status = rolloutStatus(
      deployment,
      [...afterScaleDown, existing.newReplicaSet],
      existing.newReplicaSet,
      nowMs,
    );
    return;
  }
  const { newReplicaSet } = existing.newReplicaSet
    ? existing
    : await syncReplicaSetGenerations(context, replicaSets, true);
  if (!newReplicaSet) throw new Error("no new ReplicaSet after creating it");
  if (isComplete(deployment, deployment.status ?? {})) await cleanUpHistory(context, olds);
  const desired = deployment.spec?.replicas ?? 1;
  const scaled =
    specReplicas(newReplicaSet) === desired
      ? newReplicaSet
      : await scaleReplicaSet(context, newReplicaSet, desired, "up");
  deployment.status = rolloutStatus(deployment, [...olds, scaled], scaled, nowMs);
}

/** Some pod of an old ReplicaSet has not finished (Recreate's guarantee: never old and new at once). */
function oldPodsRunning(context: RolloutContext, olds: readonly RS[]): boolean {
  if (olds.some((replicaSet) => (replicaSet.status?.replicas ?? 0) > 0)) return true;
  return olds.some((replicaSet) =>
    context
      .podsOf(replicaSet)
      .some((pod) => pod.status?.phase !== "Failed" && pod.status?.phase !== "Succeeded"),
  );
}
