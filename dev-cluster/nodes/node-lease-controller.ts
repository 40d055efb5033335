import { type Clock, type Controller, leaseKind, type Manager } from "../../runtime/index.js";
import { nodeKind } from "./kinds.js";
import { NodeLeaseReconciler } from "./node-lease-reconciler.js";

export interface NodeLeaseControllerOptions {
  /** The nodes this agent heartbeats for. */
  nodeNames: ReadonlySet<string>;
  clock: Clock;
  leaseDurationSeconds: number;
  renewIntervalMs: number;
}

/**
 * kubelet's lease heartbeat for every node this agent keeps: a change to one of their Leases or
 * Nodes looks at that node's Lease, and each is looked at once at start.
 */
export function addNodeLeaseController(manager: Manager, options: NodeLeaseControllerOptions): Controller {
  const { nodeNames } = options;
  const nodes = manager.informer(nodeKind);
  const leases = manager.informer(leaseKind);
  const reconciler = new NodeLeaseReconciler({
    nodes,
    leases,
    client: manager.client.resource(leaseKind),
    nodeNames,
    clock: options.clock,
    leaseDurationSeconds: options.leaseDurationSeconds,
    renewIntervalMs: options.renewIntervalMs,
  });
  const controller = manager.controller({
    name: "node-lease",
    workers: 4,
    reconcile: (request) => reconciler.reconcile(request),
  });
  const ours = (name: string | undefined): readonly string[] => (name && nodeNames.has(name) ? [name] : []);
  controller.watch(leases, (lease) => ours(lease.metadata?.name));
  controller.watch(nodes, (node) => ours(node.metadata?.name));
  for (const name of nodeNames) controller.enqueue(name);
  return controller;
}
