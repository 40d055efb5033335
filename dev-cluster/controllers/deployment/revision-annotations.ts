import type { Frozen } from "../../../runtime/index.js";
import type { Deployment, ReplicaSet } from "../kinds.js";

/** The annotations kube's deployment controller keeps on Deployments and their ReplicaSets. */
export const revisionAnnotation = "deployment.kubernetes.io/revision";
export const revisionHistoryAnnotation = "deployment.kubernetes.io/revision-history";
export const desiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
export const maxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";
export const podTemplateHashLabel = "pod-template-hash";

/** Deployment annotations that are not copied to its ReplicaSets. */
const notCopied = new Set([
  "kubectl.kubernetes.io/last-applied-configuration",
  revisionAnnotation,
  revisionHistoryAnnotation,
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  "deprecated.deployment.rollback.to",
]);

/** A ReplicaSet's revision (0 when it has none or an unreadable one). */
export function revisionOf(replicaSet: Frozen<ReplicaSet>): number {
  const value = Number(replicaSet.metadata?.annotations?.[revisionAnnotation] ?? "0");
  return Number.isSafeInteger(value) ? value : 0;
}

export function maxRevision(replicaSets: readonly Frozen<ReplicaSet>[]): number {
  return replicaSets.reduce((max, replicaSet) => Math.max(max, revisionOf(replicaSet)), 0);
}

/**
 * Brings the new ReplicaSet's annotations up to date (SetNewReplicaSetAnnotations): the
 * Deployment's own annotations, the revision (a ReplicaSet brought back by a rollback keeps its
 * old revision numbers in revision-history), and, for a ReplicaSet being created, the replica
 * annotations. Changes `annotations` in place; returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(
  deployment: Frozen<Deployment>,
  annotations: Record<string, string>,
  newRevision: number,
  exists: boolean,
  maxSurge: number,
): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(deployment.metadata?.annotations ?? {})) {
    if (notCopied.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  const oldRevision = annotations[revisionAnnotation];
  if (oldRevision === undefined || Number(oldRevision) < newRevision) {
    annotations[revisionAnnotation] = String(newRevision);
    changed = true;
    if (exists && oldRevision !== undefined && oldRevision !== "") {
      const history = annotations[revisionHistoryAnnotation];
      annotations[revisionHistoryAnnotation] = history ? `${history},${oldRevision}` : oldRevision;
    }
  }
  if (!exists && setReplicasAnnotations(annotations, deployment.spec?.replicas ?? 1, maxSurge))
    changed = true;
  return changed;
}

/** Records the Deployment's size on a ReplicaSet (for proportional scaling); returns whether it changed. */
export function setReplicasAnnotations(
  annotations: Record<string, string>,
  desired: number,
  maxSurge: number,
): boolean {
  const want = {
    [desiredReplicasAnnotation]: String(desired),
    [maxReplicasAnnotation]: String(desired + maxSurge),
  };
  let changed = false;
  for (const [key, value] of Object.entries(want)) {
    if (annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  return changed;
}

export function annotatedNumber(replicaSet: Frozen<ReplicaSet>, annotation: string): number | undefined {
  const raw = replicaSet.metadata?.annotations?.[annotation];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : undefined;
}
