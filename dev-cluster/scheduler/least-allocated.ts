import type { NodeInfo } from "./node-info.js";
import type { PodRequest } from "./resources/pod-requests.js";

export const MAX_NODE_SCORE = 100;

function resourceScore(requested: number, allocatable: number): number {
  if (allocatable <= 0 || requested > allocatable) return 0;
  return Math.floor(((allocatable - requested) * MAX_NODE_SCORE) / allocatable);
}

/**
 * NodeResourcesFit's LeastAllocated score (cpu and memory, weight 1 each): the more of the node
 * stays free once the pod is on it, the better. Pods that request nothing count with the default
 * requests, so they still spread.
 */
export function leastAllocatedScore(request: PodRequest, node: NodeInfo): number {
  const cpu = resourceScore(node.usage.nonZeroMilliCpu + request.nonZeroMilliCpu, node.allocatable.milliCpu);
  const memory = resourceScore(node.usage.nonZeroMemory + request.nonZeroMemory, node.allocatable.memory);
  return Math.floor((cpu + memory) / 2);
}
