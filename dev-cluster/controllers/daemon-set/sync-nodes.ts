import {
  type EventRecorder,
  type Expectations,
  type Frozen,
  objectKey,
  type ResourceClient,
} from "../../../runtime/index.js";
import { type DaemonSet, daemonSetKind, type Pod, type PodTemplate } from "../kinds.js";
import { deletePods } from "../pods/delete-pods.js";
import { podFromTemplate } from "../pods/pod-from-template.js";
import { slowStartBatch } from "../pods/slow-start.js";
import { pinnedToNode } from "./daemon-pod.js";

/** Creates or deletes at most this many pods per sync (kube's DaemonSet burstReplicas). */
const burstReplicas = 250;

export interface SyncNodesRequest {
  daemonSet: Frozen<DaemonSet>;
  key: string;
  template: PodTemplate;
  createOn: readonly string[];
  remove: readonly Frozen<Pod>[];
  podClient: ResourceClient<Pod>;
  expectations: Expectations;
  events: EventRecorder;
}

/**
 * Creates a pod pinned to each node of `createOn` and deletes `remove` (syncNodes), with
 * expectations raised first so the next sync waits until the cache shows all of it.
 */
export async function syncNodes(request: SyncNodesRequest): Promise<void> {
  const { key, expectations } = request;
  const createOn = request.createOn.slice(0, burstReplicas);
  const remove = request.remove.slice(0, burstReplicas);
  if (createOn.length === 0 && remove.length === 0) return;
  expectations.expectDeletionsOf(key, remove.map(objectKey));
  expectations.raise(key, createOn.length, 0);
  const [created, deleted] = await Promise.all([
    createPods(request, createOn),
    deleteDaemonPods(request, remove),
  ]);
  const failure = created ?? deleted;
  if (failure) throw failure;
}

async function createPods(request: SyncNodesRequest, nodes: readonly string[]): Promise<Error | undefined> {
  const { daemonSet, template, key, expectations, events } = request;
  const result = await slowStartBatch(nodes.length, async (index) => {
    const node = nodes[index] ?? "";
    const pod = podFromTemplate(template, daemonSet, daemonSetKind);
    pod.spec = pinnedToNode(pod.spec ?? { containers: [] }, node);
    const created = await request.podClient.create(pod);
    events.normal(daemonSet, "SuccessfulCreate", `Created pod: ${created.metadata?.name ?? ""}`);
  });
  const notCreated = result.errors.length + result.skipped;
  if (notCreated === 0) return undefined;
  expectations.lower(key, notCreated, 0);
  const cause = result.errors[0];
  const message = cause instanceof Error ? cause.message : String(cause);
  events.warning(daemonSet, "FailedCreate", `Error creating: ${message}`);
  return new Error(`DaemonSet ${key}: cannot create pods: ${message}`, { cause });
}

async function deleteDaemonPods(
  request: SyncNodesRequest,
  pods: readonly Frozen<Pod>[],
): Promise<Error | undefined> {
  const failure = await deletePods({ ...request, owner: request.daemonSet }, pods);
  if (!failure) return undefined;
  return new Error(`DaemonSet ${request.key}: cannot delete pods: ${failure.message}`, {
    cause: failure.cause,
  });
}
