import type { Clock, Controller, Manager } from "../../runtime/index.js";
import { nodeKind } from "./kinds.js";
import type { NodeDefinition } from "./node-definition.js";
import { NodeStatusReconciler } from "./node-status-reconciler.js";

export interface NodeStatusControllerOptions {
  /** The nodes this agent registers and keeps Ready, by name. */
  definitions: ReadonlyMap<string, NodeDefinition>;
  clock: Clock;
  statusReportIntervalMs: number;
}

/**
 * kubelet's registration and status reports for every node this agent keeps: a change to one of
 * those Nodes looks at it again, and each is looked at once at start (which registers it).
 */
export function addNodeStatusController(manager: Manager, options: NodeStatusControllerOptions): Controller {
  const { definitions } = options;
  const nodes = manager.informer(nodeKind);
  const reconciler = new NodeStatusReconciler({
    nodes,
    client: manager.client.resource(nodeKind),
    definitions,
    clock: options.clock,
    statusReportIntervalMs: options.statusReportIntervalMs,
  });
  const controller = manager.controller({
    name: "node-status",
    workers: 4,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(nodes, (node) => {
    const name = node.metadata?.name;
    return name && definitions.has(name) ? [name] : [];
  });
  for (const name of definitions.keys()) controller.enqueue(name);
  return controller;
}
