import { type Clock, type Controller, leaseKind, type Manager } from "../../runtime/index.js";
import { nodeKind } from "./kinds.js";
import { NodeLifecycleReconciler } from "./node-lifecycle-reconciler.js";

export interface NodeLifecycleControllerOptions {
  clock: Clock;
  /** A node silent for longer than this becomes Ready=Unknown (nodeMonitorGracePeriod). */
  gracePeriodMs: number;
}

/**
 * kube-controller-manager's node lifecycle controller: a change to a Node or to its Lease in
 * `kube-node-lease` looks at that node. The manager must cache the lease namespace.
 */
export function addNodeLifecycleController(
  manager: Manager,
  options: NodeLifecycleControllerOptions,
): Controller {
  const nodes = manager.informer(nodeKind);
  const leases = manager.informer(leaseKind);
  const reconciler = new NodeLifecycleReconciler({
    nodes,
    leases,
    client: manager.client.resource(nodeKind),
    clock: options.clock,
    gracePeriodMs: options.gracePeriodMs,
  });
  const controller = manager.controller({
    name: "node-lifecycle",
    workers: 2,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(nodes);
  controller.watch(leases, (lease) => (lease.metadata?.name ? [lease.metadata.name] : []));
  return controller;
}
