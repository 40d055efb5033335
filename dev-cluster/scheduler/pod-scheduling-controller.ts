import { type Clock, type Controller, type Manager, objectKey } from "../../runtime/index.js";
import { nodeChangeMayHelp, podChangeFreesResources, podCountedOnNode } from "./cluster-events.js";
import { nodeKind, podKind } from "./kinds.js";
import { PodSchedulingReconciler } from "./pod-scheduling-reconciler.js";
import { awaitsScheduling } from "./pod-status.js";
import { SchedulerMetrics } from "./scheduler-metrics.js";
import { SchedulingCache } from "./scheduling-cache.js";

export interface PodSchedulingControllerOptions {
  /** Pods whose spec.schedulerName is this are ours; also the metrics' profile. */
  schedulerName: string;
  clock: Clock;
  /** Bindings in flight at once; placement itself is one pod at a time. */
  parallelism: number;
  /** Look at an unschedulable pod again after this long even if nothing in the cluster changed. */
  unschedulableRetryMs: number;
}

/**
 * kube-scheduler's queue and cache, wired: the pods that await this scheduler are its keys; the
 * pod and node informers keep the scheduling cache, and a change that may help an unschedulable
 * pod (a node appears or changes what matters, a bound pod finishes or goes) moves every
 * unschedulable pod back to the queue (MoveAllToActiveOrBackoffQueue).
 */
export function addPodSchedulingController(
  manager: Manager,
  options: PodSchedulingControllerOptions,
): Controller {
  const { schedulerName } = options;
  const pods = manager.informer(podKind);
  const nodes = manager.informer(nodeKind);
  const cache = new SchedulingCache();
  const unschedulable = new Set<string>();
  const reconciler = new PodSchedulingReconciler({
    pods,
    cache,
    unschedulable,
    schedulerName,
    client: manager.client,
    events: manager.events,
    metrics: new SchedulerMetrics(manager.registry, schedulerName),
    clock: options.clock,
    unschedulableRetryMs: options.unschedulableRetryMs,
    parallelism: options.parallelism,
  });
  const controller = manager.controller({
    name: "scheduler",
    workers: options.parallelism,
    reconcile: (request) => reconciler.reconcile(request),
  });
  const retryUnschedulable = (): void => {
    for (const key of unschedulable) controller.enqueue(key);
  };
  nodes.addEventHandler({
    onAdd: (node) => {
      cache.setNode(node);
      retryUnschedulable();
    },
    onUpdate: (previous, current) => {
      cache.setNode(current);
      if (nodeChangeMayHelp(previous, current)) retryUnschedulable();
    },
    onDelete: (node) => cache.removeNode(node.metadata?.name ?? ""),
  });
  pods.addEventHandler({
    onAdd: (pod) => cache.observePod(pod),
    onUpdate: (previous, current) => {
      cache.observePod(current);
      if (podChangeFreesResources(previous, current)) retryUnschedulable();
    },
    onDelete: (pod) => {
      cache.removePod(pod);
      unschedulable.delete(objectKey(pod));
      if (podCountedOnNode(pod)) retryUnschedulable();
    },
  });
  controller.watch(pods, (pod) => (awaitsScheduling(pod, schedulerName) ? [objectKey(pod)] : []));
  controller.dependsOn(nodes);
  return controller;
}
