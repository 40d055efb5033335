import type { Frozen } from "../../../runtime/index.js";
import type { ReplicaSet } from "../kinds.js";
import { calculateStatus, maxSurgeOf } from "./deployment-status.js";
import { cleanUpHistory } from "./history-cleanup.js";
import { syncReplicaSetGenerations } from "./new-replica-set.js";
import {
  activeOrLatest,
  activeReplicaSets,
  bySize,
  isSaturated,
  specReplicas,
  wantedReplicas,
} from "./replica-set-groups.js";
import { annotatedNumber, maxReplicasAnnotation } from "./revision-annotations.js";
import { type RolloutContext, scaleReplicaSet } from "./rollout-context.js";

type RS = Frozen<ReplicaSet>;

/**
 * A resize outside a rollout step, or any sync of a paused Deployment (sync): the ReplicaSets
 * are resized, the template is not rolled out. With one active ReplicaSet, it takes the new
 * size; with several (a resize in the middle of a rollout), each gets its share.
 */
export async function proportionalSync(context: RolloutContext, replicaSets: readonly RS[]): Promise<void> {
  const { deployment, nowMs } = context;
  const { newReplicaSet, oldReplicaSets } = await syncReplicaSetGenerations(context, replicaSets, false);
  const resized = await scale(context, newReplicaSet, oldReplicaSets);
  if (deployment.spec?.paused) await cleanUpHistory(context, oldReplicaSets);
  const current = (replicaSet: RS | undefined): RS | undefined =>
    replicaSet ? (resized.get(replicaSet.metadata?.uid ?? "") ?? replicaSet) : undefined;
  const all = [...oldReplicaSets.map(current), current(newReplicaSet)];
  deployment.status = calculateStatus(deployment, all, current(newReplicaSet), nowMs);
}

/** Resizes what needs it; returns the ReplicaSets it wrote, by uid. */
async function scale(
  context: RolloutContext,
  newReplicaSet: RS | undefined,
  olds: readonly RS[],
): Promise<Map<string, RS>> {
  const { deployment } = context;
  const desired = deployment.spec?.replicas ?? 1;
  const written = new Map<string, RS>();
  const write = async (replicaSet: RS, size: number, operation: "up" | "down"): Promise<void> => {
    written.set(replicaSet.metadata?.uid ?? "", await scaleReplicaSet(context, replicaSet, size, operation));
  };
  const only = activeOrLatest(newReplicaSet, olds);
  if (only) {
    if (specReplicas(only) !== desired)
      await write(only, desired, desired > specReplicas(only) ? "up" : "down");
    return written;
  }
  if (isSaturated(deployment, newReplicaSet)) {
    for (const old of activeReplicaSets(olds)) await write(old, 0, "down");
    return written;
  }
  if (deployment.spec?.strategy?.type === "Recreate") return written;
  for (const [replicaSet, size] of proportionalSizes(context, activeReplicaSets([...olds, newReplicaSet]))) {
    if (size !== specReplicas(replicaSet))
      await write(replicaSet, size, size > specReplicas(replicaSet) ? "up" : "down");
  }
  return written;
}

/**
 * Shares a resize among the active ReplicaSets in proportion to their size (as kube's
 * GetProportion does, from the max-replicas annotation); what rounding leaves goes to the largest.
 */
function proportionalSizes(context: RolloutContext, active: RS[]): [RS, number][] {
  const { deployment } = context;
  const desired = deployment.spec?.replicas ?? 1;
  const allowed = desired > 0 ? desired + maxSurgeOf(deployment) : 0;
  const toAdd = allowed - wantedReplicas(active);
  if (toAdd === 0) return active.map((replicaSet) => [replicaSet, specReplicas(replicaSet)]);
  const ordered = [...active].sort(bySize(toAdd > 0));
  let added = 0;
  const sizes = ordered.map((replicaSet): [RS, number] => {
    const share = proportion(context, replicaSet, toAdd, added);
    added += share;
    return [replicaSet, specReplicas(replicaSet) + share];
  });
  const first = sizes[0];
  if (first) first[1] = Math.max(0, first[1] + toAdd - added);
  return sizes;
}

function proportion(context: RolloutContext, replicaSet: RS, toAdd: number, added: number): number {
  const { deployment } = context;
  const size = specReplicas(replicaSet);
  if (size === 0 || toAdd === added) return 0;
  const desired = deployment.spec?.replicas ?? 1;
  let fraction: number;
  if (desired === 0) fraction = -size;
  else {
    const annotated = annotatedNumber(replicaSet, maxReplicasAnnotation) ?? deployment.status?.replicas ?? 0;
    const target = annotated > 0 ? Math.round((size * (desired + maxSurgeOf(deployment))) / annotated) : size;
    fraction = target - size;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
