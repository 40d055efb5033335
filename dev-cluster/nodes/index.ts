/**
 * The dev cluster's nodes: `startNodes` registers the local node and kwok-style simulated nodes
 * and keeps them Ready (kubelet's registration and heartbeats); `startNodeLifecycle` marks nodes
 * that stop heartbeating Unknown and taints them (kube-controller-manager's node lifecycle).
 */

export { TAINT_NOT_READY, TAINT_UNREACHABLE } from "./condition-taints.js";
export {
  isSimulatedNode,
  NODE_LEASE_NAMESPACE,
  SIMULATED_NODE_ANNOTATION,
  SIMULATED_NODE_ANNOTATION_VALUE,
  SIMULATED_NODE_LABEL,
  SIMULATED_NODE_LABEL_VALUE,
} from "./kinds.js";
export { type MachineFacts, readMachineFacts } from "./machine.js";
export {
  DEFAULT_SIMULATED_CAPACITY,
  KUBELET_VERSION,
  type LocalNodeOptions,
  type NodeDefinition,
  type SimulatedNodesOptions,
} from "./node-definition.js";
export {
  type NodeLifecycleOptions,
  type RunningNodeLifecycle,
  startNodeLifecycle,
} from "./node-lifecycle.js";
export {
  addNodeLifecycleController,
  type NodeLifecycleControllerOptions,
} from "./node-lifecycle-controller.js";
export { type HeartbeatOptions, type NodesOptions, type RunningNodes, startNodes } from "./start-nodes.js";
