import type { Frozen } from "../../../runtime/index.js";
import type { Pod } from "../kinds.js";

/** What controllers read from a pod's status, the way kube's podutil reads it. */

export function podConditionOf(pod: Frozen<Pod>, type: string) {
  return pod.status?.conditions?.find((condition) => condition.type === type);
}

/** The Ready condition is True (the kubelet's verdict, probes included). */
export function isPodReady(pod: Frozen<Pod>): boolean {
  return podConditionOf(pod, "Ready")?.status === "True";
}

/** When the pod became Ready (epoch ms); undefined when it is not Ready or the time is unknown. */
export function readySince(pod: Frozen<Pod>): number | undefined {
  const ready = podConditionOf(pod, "Ready");
  if (ready?.status !== "True") return undefined;
  const since = Date.parse(ready.lastTransitionTime ?? "");
  return Number.isNaN(since) ? undefined : since;
}

/**
 * Ready for at least `minReadySeconds` (podutil.IsPodAvailable): with a minimum, a Ready
 * condition without a transition time does not count, as in kube.
 */
export function isPodAvailable(pod: Frozen<Pod>, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = readySince(pod);
  return since !== undefined && since + minReadySeconds * 1000 <= nowMs;
}

/** When a Ready pod becomes available (epoch ms), for a look again at that time. */
export function availableAt(pod: Frozen<Pod>, minReadySeconds: number): number | undefined {
  const since = readySince(pod);
  return since === undefined ? undefined : since + minReadySeconds * 1000;
}

/** Not finished and not being deleted: a pod a replica count can rely on. */
export function isPodActive(pod: Frozen<Pod>): boolean {
  const phase = pod.status?.phase;
  return phase !== "Succeeded" && phase !== "Failed" && !pod.metadata?.deletionTimestamp;
}

export function isPodTerminating(pod: Frozen<Pod>): boolean {
  return pod.metadata?.deletionTimestamp !== undefined;
}

/** The pod's IP addresses: status.podIPs, or status.podIP for writers that only set that. */
export function podIps(pod: Frozen<Pod>): string[] {
  const listed = (pod.status?.podIPs ?? []).map((entry) => entry.ip).filter((ip): ip is string => !!ip);
  if (listed.length > 0) return listed;
  return pod.status?.podIP ? [pod.status.podIP] : [];
}

/** Sum of the containers' restart counts. */
export function restartCount(pod: Frozen<Pod>): number {
  return (pod.status?.containerStatuses ?? []).reduce((sum, status) => sum + (status.restartCount ?? 0), 0);
}

/** Creation time in epoch ms (0 when missing, so such objects sort as oldest). */
export function createdAt(object: { readonly metadata?: { readonly creationTimestamp?: string } }): number {
  const parsed = Date.parse(object.metadata?.creationTimestamp ?? "");
  return Number.isNaN(parsed) ? 0 : parsed;
}
