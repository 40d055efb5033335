// The launcher pod is the VM's anchor in Kubernetes: while it exists the VM should run, and when it
// is deleted (or ends) the VM must stop. It is found by the label virt-controller puts on it.
import { LABELS } from "../../api/index.js";
import { byLabel, type Frozen, type ResourceClient, type SharedInformer } from "../../runtime/index.js";
import type { Pod, Vmi } from "../kinds.js";
import type { LauncherState } from "./vmi-decision.js";

/** The index of the pod informer by `kubevirt.io/created-by` (the VMI's uid). */
export const CREATED_BY_INDEX = "createdBy";
export const createdByIndexer = byLabel<Pod>(LABELS.createdBy);

/** A pod that no longer anchors a VM: being deleted, or its containers ended. */
export function isTerminating(pod: Frozen<Pod>): boolean {
  const phase = pod.status?.phase;
  return Boolean(pod.metadata?.deletionTimestamp) || phase === "Succeeded" || phase === "Failed";
}

export interface LauncherLookup {
  /** Pods of this node, indexed by CREATED_BY_INDEX. */
  readonly pods: SharedInformer<Pod>;
  readonly podClient: ResourceClient<Pod>;
}

/**
 * Whether the VMI's launcher pod still stands. The cache decides when it has the pod; when it
 * does not, the API server is asked before concluding that the pod is gone, since the pod informer
 * may lag behind the VMI informer (and a wrong "gone" would stop a VM).
 */
export async function launcherState(vmi: Frozen<Vmi>, lookup: LauncherLookup): Promise<LauncherState> {
  const uid = vmi.metadata?.uid ?? "";
  const cached = lookup.pods.byIndex(CREATED_BY_INDEX, uid);
  if (cached.length > 0) return cached.some((pod) => !isTerminating(pod)) ? "present" : "gone";
  const listed = await lookup.podClient.list({
    labelSelector: `${LABELS.createdBy}=${uid}`,
    ...(vmi.metadata?.namespace ? { namespace: vmi.metadata.namespace } : {}),
  });
  return listed.items.some((pod) => !isTerminating(pod as Frozen<Pod>)) ? "present" : "gone";
}

/** The Ready condition of the VMI's launcher pod, as the pod cache shows it. */
export function launcherReadiness(
  vmi: Frozen<Vmi>,
  lookup: LauncherLookup,
): { status: string; reason?: string; message?: string } | undefined {
  const pod = launcherPodFor(vmi, lookup.pods.byIndex(CREATED_BY_INDEX, vmi.metadata?.uid ?? ""));
  const ready = pod?.status?.conditions?.find((condition) => condition.type === "Ready");
  if (ready === undefined) return undefined;
  return {
    status: ready.status,
    ...(ready.reason ? { reason: ready.reason } : {}),
    ...(ready.message ? { message: ready.message } : {}),
  };
}

/** The addresses of the VMI's launcher pod, as the pod cache shows them (none before it has one). */
export function launcherPodIPs(vmi: Frozen<Vmi>, lookup: LauncherLookup): string[] {
  const pod = launcherPodFor(vmi, lookup.pods.byIndex(CREATED_BY_INDEX, vmi.metadata?.uid ?? ""));
  const listed = (pod?.status?.podIPs ?? []).map((entry) => entry.ip).filter((ip): ip is string => !!ip);
  if (listed.length > 0) return listed;
  return pod?.status?.podIP ? [pod.status.podIP] : [];
}

/**
 * The VMI's launcher pod among the pods that carry its uid in `kubevirt.io/created-by`: in the
 * VMI's namespace (anyone may label a pod, but only a pod of the VMI's namespace can hold that
 * namespace's Secrets), not terminating, and the one the VMI's status names when there are several.
 */
export function launcherPodFor(
  vmi: Frozen<Vmi>,
  candidates: readonly Frozen<Pod>[],
): Frozen<Pod> | undefined {
  const namespace = vmi.metadata?.namespace ?? "";
  const live = candidates.filter((pod) => pod.metadata?.namespace === namespace && !isTerminating(pod));
  if (live.length <= 1) return live[0];
  const active = vmi.status?.activePods ?? {};
  return live.find((pod) => Object.hasOwn(active, pod.metadata?.uid ?? ""));
}
