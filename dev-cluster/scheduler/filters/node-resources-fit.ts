import type { NodeInfo } from "../node-info.js";
import type { FilterFailure, PodContext } from "./filter.js";

interface Shortage {
  reason: string;
  /** The request alone exceeds the node's allocatable: evicting pods cannot help. */
  unresolvable: boolean;
}

function shortage(
  resource: string,
  requested: number,
  used: number,
  allocatable: number,
): Shortage | undefined {
  if (requested <= 0 || requested <= allocatable - used) return undefined;
  return { reason: `Insufficient ${resource}`, unresolvable: requested > allocatable };
}

/**
 * NodeResourcesFit: the pod's requests against what the node's allocatable leaves after the pods
 * counted on it, every shortage reported (kube-scheduler's fitsRequest).
 */
export function nodeResourcesFit(pod: PodContext, node: NodeInfo): FilterFailure | undefined {
  const shortages: Shortage[] = [];
  const { usage, allocatable } = node;
  if (usage.pods + 1 > node.allowedPods) shortages.push({ reason: "Too many pods", unresolvable: false });
  const request = pod.request.amounts;
  const requested = usage.requested;
  const checks = [
    shortage("cpu", request.milliCpu, requested.milliCpu, allocatable.milliCpu),
    shortage("memory", request.memory, requested.memory, allocatable.memory),
    shortage(
      "ephemeral-storage",
      request.ephemeralStorage,
      requested.ephemeralStorage,
      allocatable.ephemeralStorage,
    ),
    ...[...request.scalar.keys()]
      .sort()
      .map((name) =>
        shortage(
          name,
          request.scalar.get(name) ?? 0,
          requested.scalar.get(name) ?? 0,
          allocatable.scalar.get(name) ?? 0,
        ),
      ),
  ];
  for (const check of checks) if (check) shortages.push(check);
  if (shortages.length === 0) return undefined;
  return {
    reasons: shortages.map((entry) => entry.reason),
    unresolvable: shortages.some((entry) => entry.unresolvable),
  };
}
