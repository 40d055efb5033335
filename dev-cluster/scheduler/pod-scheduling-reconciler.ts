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
import { awaitsScheduling, type NotScheduledReason, withUnschedulableCondition } from "./pod-status.js";
import { podRequest } from "./resources/pod-requests.js";
import { schedulePod } from "./schedule-pod.js";
import type { SchedulerMetrics } from "./scheduler-metrics.js";
import type { SchedulingCache } from "./scheduling-cache.js";
import type { PodVolumesOnNode } from "./volumes/find-pod-volumes.js";
import type { VolumeLookup } from "./volumes/pod-volume-claims.js";
import {
  VOLUME_CHECK_INTERVAL_MS,
  type VolumeBinder,
  type VolumeReservation,
} from "./volumes/volume-binder.js";

export interface PodSchedulingReconcilerDeps {
  pods: SharedInformer<Pod>;
  /** Nodes and what is placed on them, kept by the controller's event handlers. */
  cache: SchedulingCache;
  /** Claims, volumes and classes, with this scheduler's pending writes on top. */
  storage: VolumeLookup;
  /** Pods whose volumes are being bound for their node (between Reserve and Bind). */
  volumeBinder: VolumeBinder;
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
 * node), its volumes reserved and bound (a pod whose claims still need binding waits, looked at
 * again on claim events and every second, until they are Bound), then bound through
 * pods/binding; a pod that fits nowhere gets PodScheduled=False with kube-scheduler's message and
 * a FailedScheduling event.
 */
export class PodSchedulingReconciler {
  readonly #deps: PodSchedulingReconcilerDeps;

  constructor(deps: PodSchedulingReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { key, log } = request;
    const { pods, cache, unschedulable, metrics, volumeBinder } = this.#deps;
    const pod = pods.get(key);
    if (!pod || !awaitsScheduling(pod, this.#deps.schedulerName)) {
      unschedulable.delete(key);
      this.#endVolumeBinding(key, pod);
      return {};
    }
    const reservation = volumeBinder.reservationOf(pod);
    if (reservation) return this.#continueVolumeBinding(pod, reservation, request);
    // Bound by us already; the informer has not shown it yet.
    if (cache.isAssumed(pod)) return {};
    const backoffMs = volumeBinder.backoffRemainingMs(key);
    if (backoffMs > 0) return { requeueAfterMs: backoffMs };
    const podResources = podRequest(pod);
    const placement = schedulePod(pod, podResources, cache.nodeInfos(), this.#deps.storage);
    if (placement.kind === "unschedulable") {
      metrics.attempt("unschedulable");
      unschedulable.add(key);
      await this.#reportNotScheduled(pod, placement.message, "Unschedulable", log);
      return { requeueAfterMs: this.#deps.unschedulableRetryMs };
    }
    unschedulable.delete(key);
    // Assumed before the first await: the next placement already counts this pod on its node.
    cache.assume(pod, podResources, placement.nodeName);
    return this.#reserveVolumes(pod, placement.nodeName, placement.volumes, request);
  }

  /** Reserve and PreBind's writes; a pod whose claims all are bound goes straight to Bind. */
  async #reserveVolumes(
    pod: Frozen<Pod>,
    nodeName: string,
    volumes: PodVolumesOnNode,
    request: ReconcileRequest,
  ): Promise<ReconcileResult> {
    const { volumeBinder, cache, metrics } = this.#deps;
    const reservation = volumeBinder.reserve(pod, nodeName, volumes);
    if (!reservation) return this.#bindPod(pod, nodeName, request);
    try {
      await volumeBinder.write(pod, reservation, request.signal);
    } catch (error) {
      cache.forget(pod);
      metrics.attempt("error");
      throw error;
    }
    request.log.debug({ node: nodeName }, "waiting for the pod's claims to be bound");
    return this.#continueVolumeBinding(pod, reservation, request);
  }

  /** PreBind's wait, one poll at a time: bind the pod once its claims are Bound, fail the cycle if undone. */
  async #continueVolumeBinding(
    pod: Frozen<Pod>,
    reservation: VolumeReservation,
    request: ReconcileRequest,
  ): Promise<ReconcileResult> {
    const { volumeBinder, cache, metrics } = this.#deps;
    const node = cache.nodeInfos().find((info) => info.name === reservation.nodeName);
    const outcome = volumeBinder.check(reservation, node);
    if (outcome.kind === "waiting") return { requeueAfterMs: VOLUME_CHECK_INTERVAL_MS };
    if (outcome.kind === "bound") {
      volumeBinder.forget(request.key);
      return this.#bindPod(pod, reservation.nodeName, request);
    }
    cache.forget(pod);
    metrics.attempt("error");
    const backoffMs = await volumeBinder.fail(request.key, reservation, outcome.timedOut, request.signal);
    await this.#reportNotScheduled(pod, outcome.message, "SchedulerError", request.log);
    return { requeueAfterMs: backoffMs };
  }

  /** The pod went away, got bound elsewhere or is being deleted: its reservation (if any) ends. */
  #endVolumeBinding(key: string, pod: Frozen<Pod> | undefined): void {
    const { volumeBinder, cache } = this.#deps;
    // The pod was assumed on its node while it waited for its claims.
    if (pod && volumeBinder.reservationOf(pod)) cache.forget(pod);
    volumeBinder.finish(key);
  }

  async #bindPod(pod: Frozen<Pod>, nodeName: string, request: ReconcileRequest): Promise<ReconcileResult> {
    const { cache, metrics } = this.#deps;
    const { key, namespace, name, log, signal } = request;
    try {
      await this.#bind(pod, { namespace: namespace ?? "", name }, nodeName, signal);
    } catch (error) {
      cache.forget(pod);
      if (isConflict(error) || isNotFound(error)) {
        // Bound elsewhere, being deleted, or gone: the informer will show which.
        log.info({ err: error }, "the pod cannot be bound any more: leaving it to the informer");
        return {};
      }
      metrics.attempt("error");
      throw new Error(`binding pod ${key} to node ${nodeName} failed`, { cause: error });
    }
    this.#deps.volumeBinder.finish(key);
    metrics.attempt("scheduled");
    log.debug({ node: nodeName }, "bound");
    this.#deps.events.normal(pod, "Scheduled", `Successfully assigned ${key} to ${nodeName}`);
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

  async #reportNotScheduled(
    pod: Frozen<Pod>,
    message: string,
    reason: NotScheduledReason,
    log: Logger,
  ): Promise<void> {
    const updated = withUnschedulableCondition(pod, message, this.#deps.clock.now(), reason);
    if (!updated) return;
    log.info(
      { reason, message },
      reason === "Unschedulable" ? "no node fits the pod" : "the scheduling cycle failed",
    );
    // A conflict throws: the reconcile is retried against the newer pod.
    await this.#deps.client.resource(podKind).updateStatus(updated);
    this.#deps.events.warning(pod, "FailedScheduling", message);
  }
}
