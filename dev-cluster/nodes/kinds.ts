/**
 * The kinds the node agent's registration and heartbeats write. Object types come from
 * kubernetes-models (types only), in their wire JSON form.
 */
import type { INode } from "kubernetes-models/v1/Node";
import type { INodeCondition } from "kubernetes-models/v1/NodeCondition";
import type { INodeStatus } from "kubernetes-models/v1/NodeStatus";
import type { ITaint } from "kubernetes-models/v1/Taint";

// The core kinds are declared once, in the runtime.
export { nodeKind } from "../../runtime/index.js";

export type Node = INode;
export type NodeStatus = INodeStatus;
export type NodeCondition = INodeCondition;
export type Taint = ITaint;

/** Where kubelets keep their heartbeat Leases, one per node, named after it. */
export const NODE_LEASE_NAMESPACE = "kube-node-lease";

/** Marks simulated nodes as kwok does: the node agent runs no process for their pods. */
export const SIMULATED_NODE_ANNOTATION = "kwok.x-k8s.io/node";
export const SIMULATED_NODE_ANNOTATION_VALUE = "fake";
export const SIMULATED_NODE_LABEL = "type";
export const SIMULATED_NODE_LABEL_VALUE = "kwok";

export function isSimulatedNode(node: {
  metadata?: { annotations?: Readonly<Record<string, string>> };
}): boolean {
  return node.metadata?.annotations?.[SIMULATED_NODE_ANNOTATION] === SIMULATED_NODE_ANNOTATION_VALUE;
}
