import type { Frozen } from "../../runtime/index.js";
import type { Pod } from "../kinds.js";
import { LAUNCHER } from "./launcher-pod.js";

type AnyPod = Frozen<Pod> | Pod;

/** The pod a VMI runs in: the oldest of its pods, preferring one not being deleted. */
export function launcherPodOf<P extends AnyPod>(pods: readonly P[]): P | undefined {
  const sorted = [...pods].sort(
    (a, b) =>
      (a.metadata?.creationTimestamp ?? "").localeCompare(b.metadata?.creationTimestamp ?? "") ||
      (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""),
  );
  return sorted.find((pod) => !pod.metadata?.deletionTimestamp) ?? sorted[0];
}

/** Why the pod can no longer host the VM, or undefined while it can (KubeVirt's IsPodDownOrGoingDown). */
export function podDownReason(pod: AnyPod): string | undefined {
  const name = pod.metadata?.name ?? "";
  if (pod.metadata?.deletionTimestamp) return `the launcher pod ${name} is being deleted`;
  const phase = pod.status?.phase;
  const compute = computeStatus(pod);
  const terminated = compute?.state?.terminated;
  if (phase !== "Failed" && phase !== "Succeeded" && !terminated) return undefined;
  const detail = [
    pod.status?.reason,
    pod.status?.message,
    terminated?.reason,
    terminated?.message,
    terminated ? `exit code ${terminated.exitCode}` : undefined,
  ].filter((part): part is string => Boolean(part));
  return `the launcher pod ${name} ${phase === "Succeeded" ? "completed" : "failed"}${detail.length > 0 ? `: ${detail.join(", ")}` : ""}`;
}

/** The compute container waits on its image: ErrImagePull or ImagePullBackOff, with the kubelet's message. */
export function imagePullError(pod: AnyPod): { reason: string; message: string } | undefined {
  const waiting = computeStatus(pod)?.state?.waiting;
  if (waiting?.reason !== "ErrImagePull" && waiting?.reason !== "ImagePullBackOff") return undefined;
  return { reason: waiting.reason, message: waiting.message ?? `cannot pull the launcher image` };
}

/** The scheduler's PodScheduled=False condition (Unschedulable, with its message). */
export function unscheduledCondition(pod: AnyPod): { reason: string; message: string } | undefined {
  const condition = pod.status?.conditions?.find((c) => c.type === "PodScheduled");
  if (condition?.status !== "False") return undefined;
  return { reason: condition.reason ?? "Unschedulable", message: condition.message ?? "" };
}

/** Bound to a node and running: the VM can be handed to that node's virt-handler. */
export function runningNode(pod: AnyPod): string | undefined {
  const node = pod.spec?.nodeName;
  return node && pod.status?.phase === "Running" && !podDownReason(pod) ? node : undefined;
}

/** The QoS class the API server computed for the pod. */
export function qosClassOf(pod: AnyPod): "Guaranteed" | "Burstable" | "BestEffort" | undefined {
  const qos = pod.status?.qosClass;
  return qos === "Guaranteed" || qos === "Burstable" || qos === "BestEffort" ? qos : undefined;
}

function computeStatus(pod: AnyPod) {
  return pod.status?.containerStatuses?.find((status) => status.name === LAUNCHER.container);
}
