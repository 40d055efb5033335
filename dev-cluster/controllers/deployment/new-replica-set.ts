import { type Frozen, isAlreadyExists, mutableCopy, objectKey } from "../../../runtime/index.js";
import { type Deployment, deploymentKind, type PodTemplate, type ReplicaSet } from "../kinds.js";
import { controllerRefTo, isControlledBy } from "../ownership/controller-ref.js";
import { templateHash } from "../rollout/template-hash.js";
import { conditionOf, newCondition, reasons, setCondition, statusOf } from "./deployment-conditions.js";
import { maxSurgeOf, progressDeadlineSeconds } from "./deployment-status.js";
import {
  specReplicas,
  splitNewAndOld,
  templatesEqualIgnoringHash,
  wantedReplicas,
} from "./replica-set-groups.js";
import {
  maxRevision,
  podTemplateHashLabel,
  revisionAnnotation,
  setNewReplicaSetAnnotations,
} from "./revision-annotations.js";
import { type RolloutContext, setDeploymentRevision } from "./rollout-context.js";

type RS = Frozen<ReplicaSet>;

export interface ReplicaSetGenerations {
  newReplicaSet: RS | undefined;
  oldReplicaSets: RS[];
}

/**
 * Finds the ReplicaSet of the current template and brings its annotations up to date, or, when
 * `create` and there is none, creates it, named `<deployment>-<pod-template-hash>`
 * (getAllReplicaSetsAndSyncRevision). The name is deterministic, so a create the cache has not
 * shown yet answers AlreadyExists and is recognised rather than duplicated.
 */
export async function syncReplicaSetGenerations(
  context: RolloutContext,
  replicaSets: readonly RS[],
  create: boolean,
): Promise<ReplicaSetGenerations> {
  const { newReplicaSet, oldReplicaSets } = splitNewAndOld(context.deployment, replicaSets);
  const newRevision = maxRevision(oldReplicaSets) + 1;
  if (newReplicaSet)
    return { newReplicaSet: await syncExisting(context, newReplicaSet, newRevision), oldReplicaSets };
  if (!create) return { newReplicaSet: undefined, oldReplicaSets };
  return { newReplicaSet: await createNew(context, oldReplicaSets, newRevision), oldReplicaSets };
}

async function syncExisting(context: RolloutContext, existing: RS, newRevision: number): Promise<RS> {
  const { deployment } = context;
  const copy = mutableCopy<ReplicaSet>(existing);
  copy.metadata ??= {};
  copy.metadata.annotations ??= {};
  const annotations = copy.metadata.annotations;
  const annotationsChanged = setNewReplicaSetAnnotations(
    deployment,
    annotations,
    newRevision,
    true,
    maxSurgeOf(deployment),
  );
  const minReadySeconds = deployment.spec?.minReadySeconds ?? 0;
  const minReadyChanged = (copy.spec?.minReadySeconds ?? 0) !== minReadySeconds;
  let current: RS = existing;
  if (annotationsChanged || minReadyChanged) {
    copy.spec = { ...(copy.spec ?? { selector: {} }), minReadySeconds };
    current = await context.replicaSets.update(copy);
  }
  setDeploymentRevision(deployment, annotations[revisionAnnotation] ?? String(newRevision));
  const status = statusOf(deployment);
  if (progressDeadlineSeconds(deployment) !== undefined && !conditionOf(status, "Progressing")) {
    const message = `Found new replica set "${existing.metadata?.name ?? ""}"`;
    setCondition(
      status,
      newCondition("Progressing", "True", reasons.foundNewReplicaSet, message, context.nowMs),
    );
  }
  return current;
}

async function createNew(
  context: RolloutContext,
  oldReplicaSets: readonly RS[],
  newRevision: number,
): Promise<RS> {
  const { deployment } = context;
  const draft = newReplicaSetDraft(deployment);
  const replicas = newReplicaSetReplicas(deployment, [...oldReplicaSets, draft], draft);
  draft.spec = { ...(draft.spec ?? { selector: {} }), replicas };
  const metadata = draft.metadata ?? {};
  metadata.annotations ??= {};
  setNewReplicaSetAnnotations(deployment, metadata.annotations, newRevision, false, maxSurgeOf(deployment));
  draft.metadata = metadata;
  const name = metadata.name ?? "";
  let created: RS;
  let alreadyExisted = false;
  try {
    created = await context.replicaSets.create(draft);
  } catch (error) {
    if (!isAlreadyExists(error)) {
      context.events.warning(
        deployment,
        "FailedCreate",
        `Failed to create new replica set "${name}": ${String(error)}`,
      );
      throw new Error(`cannot create ReplicaSet ${name}`, { cause: error });
    }
    created = await recognise(context, name);
    alreadyExisted = true;
  }
  if (!alreadyExisted && replicas > 0)
    context.events.normal(deployment, "ScalingReplicaSet", `Scaled up replica set ${name} to ${replicas}`);
  setDeploymentRevision(deployment, String(newRevision));
  if (!alreadyExisted && progressDeadlineSeconds(deployment) !== undefined) {
    const status = statusOf(deployment);
    const message = `Created new replica set "${name}"`;
    setCondition(
      status,
      newCondition("Progressing", "True", reasons.newReplicaSetCreated, message, context.nowMs),
    );
  }
  return created;
}

/**
 * A create answered AlreadyExists: either ours, created by an earlier sync the cache has not
 * shown yet (then it is the new ReplicaSet), or another template hashed to the same name: then
 * the collision count goes up (a new hash next time) and the sync is retried.
 */
async function recognise(context: RolloutContext, name: string): Promise<RS> {
  const { deployment } = context;
  const namespace = deployment.metadata?.namespace ?? "";
  const found = await context.replicaSets.get({ namespace, name });
  if (
    isControlledBy(found, deployment) &&
    templatesEqualIgnoringHash(found.spec?.template, deployment.spec?.template)
  )
    return found;
  const collisionCount = (deployment.status?.collisionCount ?? 0) + 1;
  await context.deployments.mergePatch(
    { namespace, name: deployment.metadata?.name ?? "" },
    { status: { collisionCount } },
    { subresource: "status" },
  );
  throw new Error(
    `hash collision for ${objectKey(deployment)}: ReplicaSet ${name} exists with another template; collisionCount is now ${collisionCount}`,
  );
}

/** The new ReplicaSet before its size is known: the template with its hash label, a selector narrowed to it. */
function newReplicaSetDraft(deployment: Deployment): ReplicaSet {
  const hash = templateHash(deployment.spec?.template, deployment.status?.collisionCount);
  const template = mutableCopy<PodTemplate>(deployment.spec?.template ?? {});
  template.metadata ??= {};
  template.metadata.labels = { ...(template.metadata.labels ?? {}), [podTemplateHashLabel]: hash };
  const selector = mutableCopy(deployment.spec?.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [podTemplateHashLabel]: hash };
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name: `${deployment.metadata?.name ?? ""}-${hash}`,
      namespace: deployment.metadata?.namespace ?? "",
      labels: { ...template.metadata.labels },
      ownerReferences: [controllerRefTo(deployment, deploymentKind)],
    },
    spec: {
      replicas: 0,
      minReadySeconds: deployment.spec?.minReadySeconds ?? 0,
      selector,
      template,
    },
  };
}

/**
 * How big the new ReplicaSet may be now (NewRSNewReplicas): for RollingUpdate, grown by what
 * maxSurge leaves room for; for Recreate, the full size (old pods are gone by then).
 */
export function newReplicaSetReplicas(
  deployment: Frozen<Deployment>,
  all: readonly (RS | undefined)[],
  newReplicaSet: RS,
): number {
  const desired = deployment.spec?.replicas ?? 1;
  if (deployment.spec?.strategy?.type === "Recreate") return desired;
  const current = specReplicas(newReplicaSet);
  const maxTotal = desired + maxSurgeOf(deployment);
  const total = wantedReplicas(all);
  if (total >= maxTotal) return current;
  return current + Math.min(maxTotal - total, desired - current);
}
