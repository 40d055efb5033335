import type { Frozen } from "../../runtime/index.js";
import type { Filter, FilterFailure, PodContext } from "./filters/filter.js";
import {
  candidateNodeNames,
  nodeAffinity,
  REASON_AFFINITY_CONFLICT,
  requiredNodeAffinity,
} from "./filters/node-affinity.js";
import { nodeResourcesFit } from "./filters/node-resources-fit.js";
import { nodeUnschedulable } from "./filters/node-unschedulable.js";
import { taintToleration } from "./filters/taint-toleration.js";
import { volumeBinding } from "./filters/volume-binding.js";
import { fitErrorMessage, NO_NODES_AVAILABLE } from "./fit-error.js";
import type { Pod } from "./kinds.js";
import { leastAllocatedScore } from "./least-allocated.js";
import type { NodeInfo } from "./node-info.js";
import type { PodRequest } from "./resources/pod-requests.js";
import { findPodVolumes, type PodVolumesOnNode } from "./volumes/find-pod-volumes.js";
import { podVolumeClaims, type VolumeLookup } from "./volumes/pod-volume-claims.js";

/** kube-scheduler's default filter order; a node fails at its first failing filter. */
const filters: readonly Filter[] = [
  nodeUnschedulable,
  taintToleration,
  nodeAffinity,
  nodeResourcesFit,
  volumeBinding,
];

/** A cluster without storage objects: a pod naming a claim finds none. */
export const noStorage: VolumeLookup = {
  claim: () => undefined,
  volume: () => undefined,
  volumes: () => [],
  storageClass: () => undefined,
};

export type Placement =
  /** `volumes`: what the pod's claims need on that node (VolumeBinding's state for Reserve). */
  | { readonly kind: "fits"; readonly nodeName: string; readonly volumes: PodVolumesOnNode }
  | { readonly kind: "unschedulable"; readonly message: string };

function runFilters(pod: PodContext, node: NodeInfo): FilterFailure | undefined {
  for (const filter of filters) {
    const failure = filter(pod, node);
    if (failure) return failure;
  }
  return undefined;
}

/**
 * One scheduling cycle over a snapshot of the nodes: PreFilter (node-name pins, the pod's claims),
 * Filter, then the LeastAllocated score; the highest score wins, ties go to the first node by
 * name. Synchronous, so the caller can assume the result before anything else reads the cache.
 */
export function schedulePod(
  pod: Frozen<Pod>,
  request: PodRequest,
  nodes: readonly NodeInfo[],
  storage: VolumeLookup = noStorage,
): Placement {
  if (nodes.length === 0) return { kind: "unschedulable", message: NO_NODES_AVAILABLE };
  const context: PodContext = {
    pod,
    request,
    tolerations: pod.spec?.tolerations ?? [],
    affinity: requiredNodeAffinity(pod),
    volumes: { claims: podVolumeClaims(pod, storage), lookup: storage },
  };
  const diagnosisBase = { numAllNodes: nodes.length, preemptionPolicy: pod.spec?.preemptionPolicy };
  const pinned = candidateNodeNames(context.affinity);
  if (pinned?.size === 0) {
    const message = fitErrorMessage({
      ...diagnosisBase,
      failures: [],
      preFilterMessage: REASON_AFFINITY_CONFLICT,
    });
    return { kind: "unschedulable", message };
  }
  if (context.volumes.claims.kind === "rejected") {
    const preFilterMessage = context.volumes.claims.message;
    return {
      kind: "unschedulable",
      message: fitErrorMessage({ ...diagnosisBase, failures: [], preFilterMessage }),
    };
  }
  const candidates = pinned ? nodes.filter((node) => pinned.has(node.name)) : nodes;
  const failures: FilterFailure[] = [];
  let best: { node: NodeInfo; score: number } | undefined;
  for (const node of candidates) {
    const failure = runFilters(context, node);
    if (failure) {
      failures.push(failure);
      continue;
    }
    const score = leastAllocatedScore(request, node);
    if (!best || score > best.score) best = { node, score };
  }
  if (best) {
    const volumes = findPodVolumes(context.volumes.claims, best.node, storage);
    return { kind: "fits", nodeName: best.node.name, volumes };
  }
  const absentCount = nodes.length - candidates.length;
  const absent = { count: absentCount, reason: "node(s) didn't satisfy plugin(s) [NodeAffinity]" };
  return { kind: "unschedulable", message: fitErrorMessage({ ...diagnosisBase, failures, absent }) };
}
