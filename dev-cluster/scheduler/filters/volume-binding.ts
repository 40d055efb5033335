import { findPodVolumes } from "../volumes/find-pod-volumes.js";
import type { Filter } from "./filter.js";

/**
 * VolumeBinding's Filter: the pod's bound claims' volumes must be reachable from the node, and
 * its unbound WaitForFirstConsumer claims must find an Available volume reachable from it or be
 * provisionable there (the claim's selected-node, when set, allows that node only). Every
 * rejection is UnschedulableAndUnresolvable: evicting pods frees no volume.
 */
export const volumeBinding: Filter = (pod, node) => {
  if (pod.volumes.claims.kind !== "claims") return undefined;
  const { reasons } = findPodVolumes(pod.volumes.claims, node, pod.volumes.lookup);
  return reasons.length === 0 ? undefined : { reasons, unresolvable: true };
};
