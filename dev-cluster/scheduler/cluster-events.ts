import type { Frozen } from "../../runtime/index.js";
import type { Node, PersistentVolumeClaim, Pod, StorageClass } from "./kinds.js";
import { isTerminal } from "./scheduling-cache.js";
import { podClaimRefs } from "./volumes/claim-helpers.js";

function schedulingView(node: Frozen<Node>): string {
  return JSON.stringify([
    node.metadata?.labels ?? {},
    node.spec?.taints ?? [],
    node.spec?.unschedulable ?? false,
    node.status?.allocatable ?? {},
    node.status?.conditions?.find((condition) => condition.type === "Ready")?.status ?? "",
  ]);
}

/**
 * Whether a node change can make an unschedulable pod fit (kube-scheduler's queueing hints, in
 * one function). Heartbeats change only timestamps and must not wake every pending pod.
 */
export function nodeChangeMayHelp(previous: Frozen<Node>, current: Frozen<Node>): boolean {
  return schedulingView(previous) !== schedulingView(current);
}

/** A bound pod that stops counting (finished) frees its node's resources. */
export function podChangeFreesResources(previous: Frozen<Pod>, current: Frozen<Pod>): boolean {
  return Boolean(previous.spec?.nodeName) && !isTerminal(previous) && isTerminal(current);
}

export function podCountedOnNode(pod: Frozen<Pod>): boolean {
  return Boolean(pod.spec?.nodeName) && !isTerminal(pod);
}

/** VolumeBinding's hint for claims: a claim (added, changed) matters to the pods that name it. */
export function podUsesClaim(pod: Frozen<Pod>, claim: Frozen<PersistentVolumeClaim>): boolean {
  if (pod.metadata?.namespace !== claim.metadata?.namespace) return false;
  return podClaimRefs(pod).some((ref) => ref.name === claim.metadata?.name);
}

/** VolumeBinding's hint for classes: a new class, or new allowedTopologies, may let a claim be provisioned. */
export function storageClassChangeMayHelp(
  previous: Frozen<StorageClass>,
  current: Frozen<StorageClass>,
): boolean {
  return JSON.stringify(previous.allowedTopologies ?? []) !== JSON.stringify(current.allowedTopologies ?? []);
}
