import {
  type Controller,
  Expectations,
  type Frozen,
  jsonEqual,
  type Manager,
  trackChildExpectations,
} from "../../../runtime/index.js";
import type { ControllerSettings } from "../controller-settings.js";
import { type DaemonSet, daemonSetKind, type Node, nodeKind, type Pod, podKind } from "../kinds.js";
import { ownershipIndexers } from "../ownership/controller-ref.js";
import { ownerOrAdopters } from "../ownership/owner-or-adopters.js";
import { DaemonSetReconciler } from "./daemon-set-reconciler.js";
import { FailedPodBackoff } from "./failed-pod-backoff.js";

/**
 * The DaemonSet controller (kube's daemon controller): a pod for every node that admits the
 * DaemonSet, pinned to it by node affinity and bound by the default scheduler; extras and pods
 * on nodes that no longer admit it deleted; RollingUpdate within maxUnavailable.
 */
export function addDaemonSetController(manager: Manager, settings: ControllerSettings): Controller {
  const daemonSets = manager.informer(daemonSetKind);
  const nodes = manager.informer(nodeKind);
  const pods = manager.informer<Pod>(podKind, { indexers: ownershipIndexers });
  const expectations = new Expectations({ clock: settings.clock });
  const reconciler = new DaemonSetReconciler({
    daemonSets,
    nodes,
    pods,
    daemonSetClient: manager.client.resource(daemonSetKind),
    podClient: manager.client.resource(podKind),
    expectations,
    backoff: new FailedPodBackoff(settings.clock),
    events: manager.events,
    clock: settings.clock,
  });
  const controller = manager.controller({
    name: "daemonset",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(daemonSets);
  controller.watch(pods, ownerOrAdopters<DaemonSet, Pod>(daemonSets, daemonSetKind));
  controller.dependsOn(nodes);
  const enqueueAll = (): void => {
    for (const key of daemonSets.keys()) controller.enqueue(key);
  };
  nodes.addEventHandler({
    onAdd: enqueueAll,
    onDelete: enqueueAll,
    onUpdate: (previous, current) => {
      if (nodeChangeMatters(previous, current)) enqueueAll();
    },
  });
  trackChildExpectations(pods, daemonSetKind, expectations);
  return controller;
}

/** A heartbeat changes nothing a DaemonSet depends on; labels, spec (taints) and condition states do. */
function nodeChangeMatters(previous: Frozen<Node>, current: Frozen<Node>): boolean {
  const states = (node: Frozen<Node>): string[] =>
    (node.status?.conditions ?? []).map((condition) => `${condition.type}=${condition.status}`).sort();
  return (
    !jsonEqual(previous.metadata?.labels, current.metadata?.labels) ||
    !jsonEqual(previous.spec, current.spec) ||
    !jsonEqual(states(previous), states(current))
  );
}
