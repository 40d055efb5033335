import { type EventRecorder, type Frozen, mutableCopy, type ResourceClient } from "../../../runtime/index.js";
import type { Deployment, Pod, ReplicaSet } from "../kinds.js";
import { maxSurgeOf } from "./deployment-status.js";
import { specReplicas } from "./replica-set-groups.js";
import { revisionAnnotation, setReplicasAnnotations } from "./revision-annotations.js";

/**
 * What one sync of a Deployment works with. `deployment` is a private working copy: the sync
 * changes its revision annotation and status there, and they are written once at the end;
 * ReplicaSets are written as the rollout steps go (each is its own object).
 */
export interface RolloutContext {
  deployment: Deployment;
  replicaSets: Pick<ResourceClient<ReplicaSet>, "create" | "get" | "update" | "delete">;
  deployments: Pick<ResourceClient<Deployment>, "mergePatch" | "updateStatus">;
  events: Pick<EventRecorder, "normal" | "warning">;
  nowMs: number;
  /** The pods a ReplicaSet controls (for Recreate, which waits for old pods to go). */
  podsOf(replicaSet: Frozen<ReplicaSet>): readonly Frozen<Pod>[];
}

/**
 * Sets a ReplicaSet's replicas, and its record of the Deployment's size, with an update based on
 * the cached version (a stale cache fails with a Conflict and the sync is retried). Returns the
 * ReplicaSet as it now is.
 */
export async function scaleReplicaSet(
  context: RolloutContext,
  replicaSet: Frozen<ReplicaSet>,
  newScale: number,
  operation: "up" | "down",
): Promise<Frozen<ReplicaSet>> {
  const { deployment } = context;
  const oldScale = specReplicas(replicaSet);
  const copy = mutableCopy<ReplicaSet>(replicaSet);
  copy.metadata ??= {};
  copy.metadata.annotations ??= {};
  const desired = deployment.spec?.replicas ?? 1;
  const annotationsChanged = setReplicasAnnotations(
    copy.metadata.annotations,
    desired,
    maxSurgeOf(deployment),
  );
  if (oldScale === newScale && !annotationsChanged) return replicaSet;
  copy.spec = { ...(copy.spec ?? { selector: {} }), replicas: newScale };
  const updated = await context.replicaSets.update(copy);
  if (oldScale !== newScale) {
    context.events.normal(
      deployment,
      "ScalingReplicaSet",
      `Scaled ${operation} replica set ${replicaSet.metadata?.name ?? ""} to ${newScale} from ${oldScale}`,
    );
  }
  return updated;
}

/** Records the revision of the new ReplicaSet on the Deployment (working copy). */
export function setDeploymentRevision(deployment: Deployment, revision: string): void {
  deployment.metadata ??= {};
  deployment.metadata.annotations ??= {};
  deployment.metadata.annotations[revisionAnnotation] = revision;
}

/**
 * Writes what the sync changed on the Deployment: the revision annotation (a metadata patch),
 * then the status (status subresource), each only when it differs from `original`.
 */
export async function writeDeployment(
  context: RolloutContext,
  original: Frozen<Deployment>,
  statusChanged: boolean,
): Promise<void> {
  const { deployment } = context;
  const ref = { namespace: deployment.metadata?.namespace ?? "", name: deployment.metadata?.name ?? "" };
  const revision = deployment.metadata?.annotations?.[revisionAnnotation];
  let resourceVersion = original.metadata?.resourceVersion;
  if (revision !== undefined && revision !== original.metadata?.annotations?.[revisionAnnotation]) {
    const patched = await context.deployments.mergePatch(ref, {
      metadata: { annotations: { [revisionAnnotation]: revision }, resourceVersion },
    });
    resourceVersion = patched.metadata?.resourceVersion;
  }
  if (!statusChanged) return;
  await context.deployments.updateStatus({
    ...deployment,
    metadata: { ...deployment.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
  });
}
