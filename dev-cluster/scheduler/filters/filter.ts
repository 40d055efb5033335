import type { Frozen } from "../../../runtime/index.js";
import type { Pod, Toleration } from "../kinds.js";
import type { NodeInfo } from "../node-info.js";
import type { PodRequest } from "../resources/pod-requests.js";
import type { PodVolumeClaims, VolumeLookup } from "../volumes/pod-volume-claims.js";
import type { RequiredNodeAffinity } from "./node-affinity.js";

/**
 * Why a node cannot take the pod. `unresolvable` is kube-scheduler's UnschedulableAndUnresolvable:
 * evicting other pods would not help (it decides the preemption part of the message).
 */
export interface FilterFailure {
  readonly reasons: readonly string[];
  readonly unresolvable: boolean;
}

/** What the filters need of the pod, computed once per scheduling attempt (the cycle state). */
export interface PodContext {
  readonly pod: Frozen<Pod>;
  readonly request: PodRequest;
  readonly tolerations: readonly Frozen<Toleration>[];
  readonly affinity: RequiredNodeAffinity;
  /** VolumeBinding's PreFilter result and the storage objects it reads. */
  readonly volumes: PodVolumeContext;
}

export interface PodVolumeContext {
  readonly claims: PodVolumeClaims;
  readonly lookup: VolumeLookup;
}

export type Filter = (pod: PodContext, node: NodeInfo) => FilterFailure | undefined;

export function unresolvable(reason: string): FilterFailure {
  return { reasons: [reason], unresolvable: true };
}
