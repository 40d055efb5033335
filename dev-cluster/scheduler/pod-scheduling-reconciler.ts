import { setMaxListeners } from "node:events";
import type { Logger } from "pino";
import {
  type Clock,
  type EventRecorder,
  type Frozen,
  isConflict,
  isNotFound,
  type KubeClient,
  objectPath,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
} from "../../runtime/index.js";
import { type Pod, podKind } from "./kinds.js";
import { awaitsScheduling, withUnschedulableCondition } from "./pod-status.js";
import { podRequest } from "./resources/pod-requests.js";
import { schedulePod } from "./schedule-pod.js";
import type { SchedulerMetrics } from "./scheduler-metrics.js";
import type { SchedulingCache } from "./scheduling-cache.js";

export interface PodSchedulingReconcilerDeps {
  pods: SharedInformer<Pod>;
  /** Nodes and what is placed on them, kept by the controller's event handlers. */
  cache: SchedulingCache;
  /** Keys of the pods that fit nowhere, moved back to the queue when the cluster changes. */
  unschedulable: Set<string>;
  /** Pods whose spec.schedulerName is this are ours. */
  schedulerName: string;
  client: KubeClient;
  events: EventRecorder;
  metrics: SchedulerMetrics;
  clock: Clock;
  /** Look at an unschedulable pod again after this long even if nothing changed. */
  unschedulableRetryMs: number;
  /** Bindings in flight at once: that many listeners on the controller's signal are expected. */
  parallelism: number;
}

/**
 * One scheduling cycle of one pod: placed by the filters and score in `schedulePod` against the
 * cache, with the chosen node assumed at once (so concurrent bindings never oversubscribe a
 * node), and bound through pods/binding; a pod that fits nowhere gets PodScheduled=False with
 * kube-scheduler's message and a FailedScheduling event.
 */
export class PodSchedulingReconciler {
  readonly #deps: PodSchedulingReconcilerDeps;

  constructor(deps: PodSchedulingReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile({ key, namespace, name, log, signal }: ReconcileRequest): Promise<ReconcileResult> {
    const { pods, cache, unschedulable, metrics } = this.#deps;
    const pod = pods.get(key);
    if (!pod || !awaitsScheduling(pod, this.#deps.schedulerName)) {
      unschedulable.delete(key);
      return {};
    }
    // Bound by us already; the informer has not shown it yet.
    if (cache.isAssumed(pod)) return {};
    const request = podRequest(pod);
    const placement = schedulePod(pod, request, cache.nodeInfos());
    if (placement.kind === "unschedulable") {
      metrics.attempt("unschedulable");
      unschedulable.add(key);
      await this.#reportUnschedulable(pod, placement.message, log);
      return { requeueAfterMs: this.#deps.unschedulableRetryMs };
    }
    unschedulable.delete(key);
    // Assumed before the first await: the next placement already counts this pod on its node.
    cache.assume(pod, request, placement.nodeName);
    try {
      await this.#bind(pod, { namespace: namespace ?? "", name }, placement.nodeName, signal);
    } catch (error) {
      cache.forget(pod);
      if (isConflict(error) || isNotFound(error)) {
        // Bound elsewhere, being deleted, or gone: the informer will show which.
        log.info({ err: error }, "the pod cannot be bound any more: leaving it to the informer");
        return {};
      }
      metrics.attempt("error");
      throw new Error(`binding pod ${key} to node ${placement.nodeName} failed`, { cause: error });
    }
    metrics.attempt("scheduled");
    log.debug({ node: placement.nodeName }, "bound");
    this.#deps.events.normal(pod, "Scheduled", `Successfully assigned ${key} to ${placement.nodeName}`);
    return {};
  }

  #bind(
    pod: Frozen<Pod>,
    ref: { namespace: string; name: string },
    nodeName: string,
    signal: AbortSignal,
  ): Promise<unknown> {
    // Every binding in flight listens on the controller's signal: that many listeners are expected.
    setMaxListeners(this.#deps.parallelism + 10, signal);
    // The uid makes the server refuse the binding if the pod was replaced by a namesake meanwhile.
    const binding = {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { ...ref, uid: pod.metadata?.uid },
      target: { apiVersion: "v1", kind: "Node", name: nodeName },
    };
    return this.#deps.client.transport.json({
      method: "POST",
      path: objectPath(podKind, ref, "binding"),
      body: binding,
      signal,
    });
  }

  async #reportUnschedulable(pod: Frozen<Pod>, message: string, log: Logger): Promise<void> {
    const updated = withUnschedulableCondition(pod, message, this.#deps.clock.now());
    if (!updated) return;
    log.info({ reason: "Unschedulable", message }, "no node fits the pod");
    // A conflict throws: the reconcile is retried against the newer pod.
    await this.#deps.client.resource(podKind).updateStatus(updated);
    this.#deps.events.warning(pod, "FailedScheduling", message);
  }
}
