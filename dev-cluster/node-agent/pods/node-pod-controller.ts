import type { Controller, Manager, SharedInformer } from "../../../runtime/index.js";
import type { Node, Pod } from "../kinds.js";
import type { NodePodReconciler } from "./node-pod-reconciler.js";

export interface NodePodControllerOptions {
  reconciler: NodePodReconciler;
  pods: SharedInformer<Pod>;
  nodes: SharedInformer<Node>;
  /** Pods synced at once. */
  workers: number;
}

/**
 * The node agent's controller: every pod bound to one of its nodes is reconciled; nothing runs
 * before the node cache has synced and the previous run has been adopted. Each node has its own
 * agent, so the controller is not leader-elected.
 */
export function addNodePodController(manager: Manager, options: NodePodControllerOptions): Controller {
  const { reconciler } = options;
  const controller = manager.controller({
    name: "node-agent",
    workers: options.workers,
    needsLeaderElection: false,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(options.pods, reconciler.keysOf);
  controller.dependsOn(options.nodes);
  controller.dependsOn(reconciler.adoption);
  return controller;
}
