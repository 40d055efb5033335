import { type Clock, type Controller, type Frozen, type Manager, objectKey } from "../../runtime/index.js";
import {
  nodeChangeMayHelp,
  podChangeFreesResources,
  podCountedOnNode,
  podUsesClaim,
  storageClassChangeMayHelp,
} from "./cluster-events.js";
import {
  nodeKind,
  type PersistentVolumeClaim,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  podKind,
  storageClassKind,
} from "./kinds.js";
import { PodSchedulingReconciler } from "./pod-scheduling-reconciler.js";
import { awaitsScheduling } from "./pod-status.js";
import { SchedulerMetrics } from "./scheduler-metrics.js";
import { SchedulingCache } from "./scheduling-cache.js";
import { AssumedStorage } from "./volumes/assumed-storage.js";
import { VolumeBinder } from "./volumes/volume-binder.js";

export interface PodSchedulingControllerOptions {
  /** Pods whose spec.schedulerName is this are ours; also the metrics' profile. */
  schedulerName: string;
  clock: Clock;
  /** Bindings in flight at once; placement itself is one pod at a time. */
  parallelism: number;
  /** Look at an unschedulable pod again after this long even if nothing in the cluster changed. */
  unschedulableRetryMs: number;
  /** How long a pod waits for its claims to be bound before its cycle fails (kube's bindTimeoutSeconds). */
  volumeBindTimeoutMs: number;
}

/**
 * kube-scheduler's queue and cache, wired: the pods that await this scheduler are its keys; the
 * pod and node informers keep the scheduling cache, the claim, volume and class informers feed
 * VolumeBinding, and a change that may help an unschedulable pod (a node appears or changes what
 * matters, a bound pod finishes or goes, a claim it names or any volume or class appears or
 * changes) moves those unschedulable pods back to the queue (MoveAllToActiveOrBackoffQueue). Pods
 * waiting for their claims to be bound are looked at again on every claim and volume change.
 */
export function addPodSchedulingController(
  manager: Manager,
  options: PodSchedulingControllerOptions,
): Controller {
  const { schedulerName } = options;
  const pods = manager.informer(podKind);
  const nodes = manager.informer(nodeKind);
  const claims = manager.informer(persistentVolumeClaimKind);
  const volumes = manager.informer(persistentVolumeKind);
  const classes = manager.informer(storageClassKind);
  const cache = new SchedulingCache();
  const storage = new AssumedStorage({ claims, volumes, classes });
  const volumeBinder = new VolumeBinder({
    storage,
    client: manager.client,
    clock: options.clock,
    bindTimeoutMs: options.volumeBindTimeoutMs,
  });
  const unschedulable = new Set<string>();
  const reconciler = new PodSchedulingReconciler({
    pods,
    cache,
    storage,
    volumeBinder,
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
  const retryWaitingForVolumes = (): void => {
    for (const key of volumeBinder.waitingPods()) controller.enqueue(key);
  };
  const retryClaimUsers = (claim: Frozen<PersistentVolumeClaim>, waitingOnly: boolean): void => {
    const keys = waitingOnly ? volumeBinder.waitingPods() : [...unschedulable, ...volumeBinder.waitingPods()];
    for (const key of keys) {
      const pod = pods.get(key);
      if (pod && podUsesClaim(pod, claim)) controller.enqueue(key);
    }
  };
  claims.addEventHandler({
    onAdd: (claim) => retryClaimUsers(claim, false),
    onUpdate: (_previous, current) => retryClaimUsers(current, false),
    onDelete: (claim) => retryClaimUsers(claim, true),
  });
  volumes.addEventHandler({
    onAdd: () => {
      retryUnschedulable();
      retryWaitingForVolumes();
    },
    onUpdate: () => {
      retryUnschedulable();
      retryWaitingForVolumes();
    },
  });
  classes.addEventHandler({
    onAdd: retryUnschedulable,
    onUpdate: (previous, current) => {
      if (storageClassChangeMayHelp(previous, current)) retryUnschedulable();
    },
  });
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
      volumeBinder.finish(objectKey(pod));
      if (podCountedOnNode(pod)) retryUnschedulable();
    },
  });
  controller.watch(pods, (pod) => (awaitsScheduling(pod, schedulerName) ? [objectKey(pod)] : []));
  controller.dependsOn(nodes);
  for (const informer of [claims, volumes, classes]) controller.dependsOn(informer);
  return controller;
}
