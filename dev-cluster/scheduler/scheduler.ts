import { setMaxListeners } from "node:events";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import {
  type Clock,
  type Frozen,
  isConflict,
  isNotFound,
  Manager,
  type ManagerExit,
  objectKey,
  objectPath,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
  systemClock,
} from "../../runtime/index.js";
import { nodeChangeMayHelp, podChangeFreesResources, podCountedOnNode } from "./cluster-events.js";
import { type Node, nodeKind, type Pod, podKind } from "./kinds.js";
import { awaitsScheduling, withUnschedulableCondition } from "./pod-status.js";
import { podRequest } from "./resources/pod-requests.js";
import { schedulePod } from "./schedule-pod.js";
import { SchedulerMetrics } from "./scheduler-metrics.js";
import { SchedulingCache } from "./scheduling-cache.js";

export interface SchedulerOptions {
  kubeConfig: KubeConfig;
  log: Logger;
  clock?: Clock;
  /** Pods whose spec.schedulerName is this are ours; also the Events' source (default "default-scheduler"). */
  schedulerName?: string;
  /** Bindings in flight at once (default 16). Placement itself is one pod at a time. */
  parallelism?: number;
  /**
   * Look at an unschedulable pod again after this long even if nothing in the cluster changed
   * (default 5 min, kube-scheduler's podMaxInUnschedulablePodsDuration).
   */
  unschedulableRetryMs?: number;
}

export interface RunningScheduler {
  /** Resolves when the scheduler stopped, saying why ("failed" means it needs a restart). */
  readonly done: Promise<ManagerExit>;
  /** Resolves once the pod and node caches are filled and placements can start. */
  synced(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The dev cluster's kube-scheduler: pods whose schedulerName is ours and that have no node are
 * placed by the filters and score in `schedulePod`, and bound through pods/binding. Placement
 * is synchronous against the cache, with the chosen node assumed at once, so concurrent bindings
 * never oversubscribe a node. Unschedulable pods get PodScheduled=False with kube-scheduler's
 * message and a FailedScheduling event, and are tried again when a node or a pod change may help.
 * Everything is read from informers: a restarted scheduler picks up where it was.
 */
export class Scheduler {
  readonly #manager: Manager;
  readonly #pods: SharedInformer<Pod>;
  readonly #nodes: SharedInformer<Node>;
  readonly #cache = new SchedulingCache();
  readonly #unschedulable = new Set<string>();
  readonly #schedulerName: string;
  readonly #clock: Clock;
  readonly #retryMs: number;
  readonly #metrics: SchedulerMetrics;
  readonly #enqueue: (key: string) => void;
  readonly #parallelism: number;

  constructor(options: SchedulerOptions) {
    this.#schedulerName = options.schedulerName ?? "default-scheduler";
    this.#clock = options.clock ?? systemClock;
    this.#retryMs = options.unschedulableRetryMs ?? 5 * 60_000;
    this.#parallelism = options.parallelism ?? 16;
    this.#manager = new Manager({
      name: this.#schedulerName,
      kubeConfig: options.kubeConfig,
      log: options.log,
      clock: this.#clock,
    });
    this.#metrics = new SchedulerMetrics(this.#manager.registry, this.#schedulerName);
    this.#pods = this.#manager.informer(podKind);
    this.#nodes = this.#manager.informer(nodeKind);
    const controller = this.#manager.controller({
      name: "scheduler",
      workers: this.#parallelism,
      reconcile: (request) => this.#reconcile(request),
    });
    this.#enqueue = (key) => controller.enqueue(key);
    this.#trackNodes();
    this.#trackPods();
    controller.watch(this.#pods, (pod) => (this.#isOurs(pod) ? [objectKey(pod)] : []));
    controller.dependsOn(this.#nodes);
  }

  get done(): Promise<ManagerExit> {
    return this.#manager.done;
  }

  start(): Promise<void> {
    return this.#manager.start();
  }

  synced(): Promise<boolean> {
    return this.#manager.cache.waitForSync();
  }

  stop(): Promise<void> {
    return this.#manager.stop();
  }

  #isOurs(pod: Frozen<Pod>): boolean {
    return awaitsScheduling(pod, this.#schedulerName);
  }

  #trackNodes(): void {
    this.#nodes.addEventHandler({
      onAdd: (node) => {
        this.#cache.setNode(node);
        this.#retryUnschedulable();
      },
      onUpdate: (previous, current) => {
        this.#cache.setNode(current);
        if (nodeChangeMayHelp(previous, current)) this.#retryUnschedulable();
      },
      onDelete: (node) => this.#cache.removeNode(node.metadata?.name ?? ""),
    });
  }

  #trackPods(): void {
    this.#pods.addEventHandler({
      onAdd: (pod) => this.#cache.observePod(pod),
      onUpdate: (previous, current) => {
        this.#cache.observePod(current);
        if (podChangeFreesResources(previous, current)) this.#retryUnschedulable();
      },
      onDelete: (pod) => {
        this.#cache.removePod(pod);
        this.#unschedulable.delete(objectKey(pod));
        if (podCountedOnNode(pod)) this.#retryUnschedulable();
      },
    });
  }

  /** Moves every unschedulable pod back to the queue (kube-scheduler's MoveAllToActiveOrBackoffQueue). */
  #retryUnschedulable(): void {
    for (const key of this.#unschedulable) this.#enqueue(key);
  }

  async #reconcile({
    key,
    namespace,
    name,
    log,
    signal,
  }: ReconcileRequest): Promise<ReconcileResult | undefined> {
    const pod = this.#pods.get(key);
    if (!pod || !this.#isOurs(pod)) {
      this.#unschedulable.delete(key);
      return undefined;
    }
    // Bound by us already; the informer has not shown it yet.
    if (this.#cache.isAssumed(pod)) return undefined;
    const request = podRequest(pod);
    const placement = schedulePod(pod, request, this.#cache.nodeInfos());
    if (placement.kind === "unschedulable") {
      this.#metrics.attempt("unschedulable");
      this.#unschedulable.add(key);
      await this.#reportUnschedulable(pod, placement.message, log);
      return { requeueAfterMs: this.#retryMs };
    }
    this.#unschedulable.delete(key);
    // Assumed before the first await: the next placement already counts this pod on its node.
    this.#cache.assume(pod, request, placement.nodeName);
    try {
      await this.#bind(pod, { namespace: namespace ?? "", name }, placement.nodeName, signal);
    } catch (error) {
      this.#cache.forget(pod);
      if (isConflict(error) || isNotFound(error)) {
        // Bound elsewhere, being deleted, or gone: the informer will show which.
        log.info({ err: error }, "the pod cannot be bound any more: leaving it to the informer");
        return undefined;
      }
      this.#metrics.attempt("error");
      throw new Error(`binding pod ${key} to node ${placement.nodeName} failed`, { cause: error });
    }
    this.#metrics.attempt("scheduled");
    log.debug({ node: placement.nodeName }, "bound");
    this.#manager.events.normal(pod, "Scheduled", `Successfully assigned ${key} to ${placement.nodeName}`);
    return undefined;
  }

  #bind(
    pod: Frozen<Pod>,
    ref: { namespace: string; name: string },
    nodeName: string,
    signal: AbortSignal,
  ): Promise<unknown> {
    // Every binding in flight listens on the controller's signal: that many listeners are expected.
    setMaxListeners(this.#parallelism + 10, signal);
    // The uid makes the server refuse the binding if the pod was replaced by a namesake meanwhile.
    const binding = {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { ...ref, uid: pod.metadata?.uid },
      target: { apiVersion: "v1", kind: "Node", name: nodeName },
    };
    return this.#manager.client.transport.json({
      method: "POST",
      path: objectPath(podKind, ref, "binding"),
      body: binding,
      signal,
    });
  }

  async #reportUnschedulable(pod: Frozen<Pod>, message: string, log: Logger): Promise<void> {
    const updated = withUnschedulableCondition(pod, message, this.#clock.now());
    if (!updated) return;
    log.info({ reason: "Unschedulable", message }, "no node fits the pod");
    // A conflict throws: the reconcile is retried against the newer pod.
    await this.#manager.client.resource(podKind).updateStatus(updated);
    this.#manager.events.warning(pod, "FailedScheduling", message);
  }
}

/** Starts the scheduler; it runs until `stop()`. */
export async function startScheduler(options: SchedulerOptions): Promise<RunningScheduler> {
  const scheduler = new Scheduler(options);
  await scheduler.start();
  return scheduler;
}
