import {
  type EventRecorder,
  type Expectations,
  type Frozen,
  objectKey,
  type ResourceClient,
} from "../../../runtime/index.js";
import { type Pod, type ReplicaSet, replicaSetKind } from "../kinds.js";
import { deletePods } from "../pods/delete-pods.js";
import { inDeletionOrder } from "../pods/deletion-order.js";
import { podFromTemplate } from "../pods/pod-from-template.js";
import { slowStartBatch } from "../pods/slow-start.js";
import type { ReplicaFailure } from "./replica-set-status.js";

/** Creates or deletes at most this many pods per reconcile (kube's burstReplicas). */
export const burstReplicas = 500;

export interface ManageReplicasRequest {
  replicaSet: Frozen<ReplicaSet>;
  key: string;
  /** The active pods the ReplicaSet owns. */
  pods: readonly Frozen<Pod>[];
  podClient: ResourceClient<Pod>;
  expectations: Expectations;
  events: EventRecorder;
}

/**
 * Brings the number of pods to spec.replicas (manageReplicas): creates the missing ones in slow
 * start batches, or deletes the surplus, the least useful first. Expectations are raised before
 * any write, so that the next reconcile waits for the cache to show them. Returns the failure
 * to report in the ReplicaFailure condition, if any.
 */
export async function manageReplicas(request: ManageReplicasRequest): Promise<ReplicaFailure | undefined> {
  const wanted = request.replicaSet.spec?.replicas ?? 1;
  const diff = request.pods.length - wanted;
  if (diff < 0) return createPods(request, Math.min(-diff, burstReplicas));
  if (diff > 0) return deleteSurplus(request, Math.min(diff, burstReplicas));
  return undefined;
}

async function createPods(
  request: ManageReplicasRequest,
  count: number,
): Promise<ReplicaFailure | undefined> {
  const { replicaSet, key, expectations, events } = request;
  const template = replicaSet.spec?.template;
  if (!template) return { reason: "FailedCreate", message: "the ReplicaSet has no pod template" };
  expectations.expectCreations(key, count);
  const result = await slowStartBatch(count, async () => {
    const created = await request.podClient.create(podFromTemplate(template, replicaSet, replicaSetKind));
    events.normal(replicaSet, "SuccessfulCreate", `Created pod: ${created.metadata?.name ?? ""}`);
  });
  const notCreated = result.errors.length + result.skipped;
  if (notCreated === 0) return undefined;
  // Creates that failed or were never tried will never be observed: stop waiting for them.
  expectations.lower(key, notCreated, 0);
  const message = errorMessage(result.errors[0]);
  events.warning(replicaSet, "FailedCreate", `Error creating: ${message}`);
  return { reason: "FailedCreate", message };
}

async function deleteSurplus(
  request: ManageReplicasRequest,
  count: number,
): Promise<ReplicaFailure | undefined> {
  const victims = inDeletionOrder(request.pods).slice(0, count);
  request.expectations.expectDeletionsOf(request.key, victims.map(objectKey));
  const failure = await deletePods({ ...request, owner: request.replicaSet }, victims);
  return failure ? { reason: "FailedDelete", message: failure.message } : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
