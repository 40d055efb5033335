import {
  type EventRecorder,
  type Expectations,
  type Frozen,
  isNotFound,
  type KubeObject,
  objectKey,
  type ResourceClient,
} from "../../../runtime/index.js";
import type { Pod } from "../kinds.js";

export interface DeletePodsRequest {
  /** The object that owns the pods: events are recorded on it. */
  owner: Frozen<KubeObject>;
  /** The owner's work-queue key, under which the deletions are expected. */
  key: string;
  podClient: ResourceClient<Pod>;
  expectations: Expectations;
  events: EventRecorder;
}

/**
 * Deletes pods an owner no longer wants, each with a uid precondition (a pod recreated under the
 * same name is not touched). A deletion that fails, or finds the pod already gone, will never be
 * observed as ours, so its expectation is lowered at once. Returns the first failure, already
 * recorded as a FailedDelete event, or undefined when every pod went.
 */
export async function deletePods(
  request: DeletePodsRequest,
  pods: readonly Frozen<Pod>[],
): Promise<{ message: string; cause: unknown } | undefined> {
  const { owner, key, expectations, events } = request;
  const results = await Promise.allSettled(
    pods.map(async (pod) => {
      const name = pod.metadata?.name ?? "";
      try {
        await request.podClient.delete(
          { namespace: pod.metadata?.namespace ?? "", name },
          { preconditions: { uid: pod.metadata?.uid ?? "" } },
        );
        events.normal(owner, "SuccessfulDelete", `Deleted pod: ${name}`);
      } catch (error) {
        expectations.deletionObservedOf(key, objectKey(pod));
        if (!isNotFound(error)) throw error;
      }
    }),
  );
  const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (!failed) return undefined;
  const message = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
  events.warning(owner, "FailedDelete", `Error deleting: ${message}`);
  return { message, cause: failed.reason };
}
