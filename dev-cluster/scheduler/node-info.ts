import type { Frozen } from "../../runtime/index.js";
import type { Node, Taint } from "./kinds.js";
import type { PodRequest } from "./resources/pod-requests.js";
import {
  addAmounts,
  amountsFromList,
  countFromList,
  emptyAmounts,
  type ResourceAmounts,
  type ResourceList,
} from "./resources/resource-amounts.js";

export const TAINT_NOT_READY = "node.kubernetes.io/not-ready";
export const TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";
export const TAINT_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";

/** What the pods counted on a node reserve (kube-scheduler's NodeInfo.Requested and friends). */
export class NodeUsage {
  readonly requested: ResourceAmounts = emptyAmounts();
  nonZeroMilliCpu = 0;
  nonZeroMemory = 0;
  pods = 0;

  add(request: PodRequest, sign: 1 | -1): void {
    addAmounts(this.requested, request.amounts, sign);
    this.nonZeroMilliCpu += sign * request.nonZeroMilliCpu;
    this.nonZeroMemory += sign * request.nonZeroMemory;
    this.pods += sign;
  }
}

/** A node as the filters see it: parsed once per node change, with the live usage of its pods. */
export interface NodeInfo {
  readonly name: string;
  readonly node: Frozen<Node>;
  readonly labels: Readonly<Record<string, string>>;
  readonly allocatable: ResourceAmounts;
  readonly allowedPods: number;
  readonly unschedulable: boolean;
  /** The node's taints plus the NoSchedule taint its Ready condition implies. */
  readonly taints: readonly Frozen<Taint>[];
  readonly usage: NodeUsage;
}

export function nodeInfoOf(node: Frozen<Node>, usage: NodeUsage): NodeInfo {
  const allocatable = node.status?.allocatable as ResourceList | undefined;
  return {
    name: node.metadata?.name ?? "",
    node,
    labels: node.metadata?.labels ?? {},
    allocatable: amountsFromList(allocatable),
    allowedPods: countFromList(allocatable, "pods"),
    unschedulable: node.spec?.unschedulable === true,
    taints: effectiveTaints(node),
    usage,
  };
}

/**
 * The node lifecycle controller taints nodes that are not Ready (not-ready when Ready=False,
 * unreachable when Unknown or missing), and kube-scheduler filters on those taints only. A node
 * whose condition changed before the taint was written is treated as already tainted, so no pod
 * lands on a node that stopped heartbeating in between.
 */
function effectiveTaints(node: Frozen<Node>): readonly Frozen<Taint>[] {
  const taints = node.spec?.taints ?? [];
  const ready = node.status?.conditions?.find((condition) => condition.type === "Ready");
  if (ready?.status === "True") return taints;
  const key = ready?.status === "False" ? TAINT_NOT_READY : TAINT_UNREACHABLE;
  if (taints.some((taint) => taint.key === key && taint.effect === "NoSchedule")) return taints;
  return [...taints, { key, effect: "NoSchedule" }];
}
