import type { Frozen } from "../../../runtime/index.js";
import type { Deployment, PodTemplate, ReplicaSet } from "../kinds.js";
import { createdAt } from "../pods/pod-state.js";
import { sameTemplate } from "../rollout/template-hash.js";
import {
  annotatedNumber,
  desiredReplicasAnnotation,
  podTemplateHashLabel,
  revisionOf,
} from "./revision-annotations.js";

type RS = Frozen<ReplicaSet>;

export const specReplicas = (replicaSet: RS): number => replicaSet.spec?.replicas ?? 1;

/** Oldest first, then by name (controller.ReplicaSetsByCreationTimestamp). */
export function byCreation(a: RS, b: RS): number {
  return createdAt(a) - createdAt(b) || (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "");
}

/** Lowest revision first (deploymentutil.ReplicaSetsByRevision). */
export function byRevision(a: RS, b: RS): number {
  return revisionOf(a) - revisionOf(b) || byCreation(a, b);
}

/** Largest first; among equals, newest first (ReplicaSetsBySizeNewer) or oldest first (BySizeOlder). */
export function bySize(newerFirst: boolean): (a: RS, b: RS) => number {
  return (a, b) => specReplicas(b) - specReplicas(a) || (newerFirst ? byCreation(b, a) : byCreation(a, b));
}

/** Whether two templates are equal once the pod-template-hash label is left out (EqualIgnoreHash). */
export function templatesEqualIgnoringHash(
  a: Frozen<PodTemplate> | undefined,
  b: Frozen<PodTemplate> | undefined,
): boolean {
  return sameTemplate(withoutHash(a), withoutHash(b));
}

function withoutHash(template: Frozen<PodTemplate> | undefined): unknown {
  if (!template) return {};
  const labels = { ...(template.metadata?.labels ?? {}) };
  delete labels[podTemplateHashLabel];
  const metadata = { ...(template.metadata ?? {}), labels };
  if (Object.keys(labels).length === 0) delete (metadata as { labels?: unknown }).labels;
  return { ...template, metadata };
}

/** The oldest ReplicaSet whose template is the Deployment's (FindNewReplicaSet), and the others. */
export function splitNewAndOld(
  deployment: Frozen<Deployment>,
  replicaSets: readonly RS[],
): { newReplicaSet: RS | undefined; oldReplicaSets: RS[] } {
  const sorted = [...replicaSets].sort(byCreation);
  const newReplicaSet = sorted.find((replicaSet) =>
    templatesEqualIgnoringHash(replicaSet.spec?.template, deployment.spec?.template),
  );
  return { newReplicaSet, oldReplicaSets: sorted.filter((replicaSet) => replicaSet !== newReplicaSet) };
}

/** ReplicaSets that want pods. */
export function activeReplicaSets(replicaSets: readonly (RS | undefined)[]): RS[] {
  return replicaSets.filter((replicaSet): replicaSet is RS => !!replicaSet && specReplicas(replicaSet) > 0);
}

const sum = (replicaSets: readonly (RS | undefined)[], count: (replicaSet: RS) => number): number =>
  replicaSets.reduce((total, replicaSet) => total + (replicaSet ? count(replicaSet) : 0), 0);

/** Replicas the ReplicaSets want (GetReplicaCountForReplicaSets). */
export const wantedReplicas = (replicaSets: readonly (RS | undefined)[]): number =>
  sum(replicaSets, specReplicas);
/** Pods the ReplicaSets have (GetActualReplicaCountForReplicaSets). */
export const actualReplicas = (replicaSets: readonly (RS | undefined)[]): number =>
  sum(replicaSets, (replicaSet) => replicaSet.status?.replicas ?? 0);
export const readyReplicas = (replicaSets: readonly (RS | undefined)[]): number =>
  sum(replicaSets, (replicaSet) => replicaSet.status?.readyReplicas ?? 0);
export const availableReplicas = (replicaSets: readonly (RS | undefined)[]): number =>
  sum(replicaSets, (replicaSet) => replicaSet.status?.availableReplicas ?? 0);

/**
 * The one ReplicaSet to scale when the Deployment is resized outside a rollout
 * (FindActiveOrLatest): the only active one, or, when none is active, the new or the latest one.
 * Undefined when several are active (proportional scaling then).
 */
export function activeOrLatest(newReplicaSet: RS | undefined, oldReplicaSets: readonly RS[]): RS | undefined {
  const active = activeReplicaSets([...oldReplicaSets, newReplicaSet]);
  if (active.length === 1) return active[0];
  if (active.length > 1) return undefined;
  return newReplicaSet ?? [...oldReplicaSets].sort(byCreation).at(-1);
}

/** A scaling event: an active ReplicaSet was sized for another Deployment size (isScalingEvent). */
export function isScalingEvent(deployment: Frozen<Deployment>, replicaSets: readonly RS[]): boolean {
  const desired = deployment.spec?.replicas ?? 1;
  return activeReplicaSets(replicaSets).some((replicaSet) => {
    const annotated = annotatedNumber(replicaSet, desiredReplicasAnnotation);
    return annotated !== undefined && annotated !== desired;
  });
}

/** The new ReplicaSet runs all the Deployment wants, all available (IsSaturated). */
export function isSaturated(deployment: Frozen<Deployment>, newReplicaSet: RS | undefined): boolean {
  if (!newReplicaSet) return false;
  const desired = deployment.spec?.replicas ?? 1;
  return (
    annotatedNumber(newReplicaSet, desiredReplicasAnnotation) === desired &&
    specReplicas(newReplicaSet) === desired &&
    (newReplicaSet.status?.availableReplicas ?? 0) === desired
  );
}
