import {
  type Controller,
  Expectations,
  type Manager,
  trackChildExpectations,
} from "../../../runtime/index.js";
import type { ControllerSettings } from "../controller-settings.js";
import { type Pod, podKind, type ReplicaSet, replicaSetKind } from "../kinds.js";
import { ownershipIndexers } from "../ownership/controller-ref.js";
import { ownerOrAdopters } from "../ownership/owner-or-adopters.js";
import { ReplicaSetReconciler } from "./replica-set-reconciler.js";

/**
 * The ReplicaSet controller (kube's replicaset controller): keeps spec.replicas active pods
 * from the template, adopting matching orphans and releasing pods that stopped matching, and
 * reports what it sees in the status.
 */
export function addReplicaSetController(manager: Manager, settings: ControllerSettings): Controller {
  const replicaSets = manager.informer(replicaSetKind);
  const pods = manager.informer<Pod>(podKind, { indexers: ownershipIndexers });
  const expectations = new Expectations({ clock: settings.clock });
  const reconciler = new ReplicaSetReconciler({
    replicaSets,
    pods,
    replicaSetClient: manager.client.resource(replicaSetKind),
    podClient: manager.client.resource(podKind),
    expectations,
    events: manager.events,
    clock: settings.clock,
  });
  const controller = manager.controller({
    name: "replicaset",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(replicaSets);
  controller.watch(pods, ownerOrAdopters<ReplicaSet, Pod>(replicaSets, replicaSetKind));
  trackChildExpectations(pods, replicaSetKind, expectations);
  return controller;
}
