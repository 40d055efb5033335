import { type Frozen, findCondition, mutableCopy } from "../../runtime/index.js";
import type { Node, Taint } from "./kinds.js";

export const TAINT_NOT_READY = "node.kubernetes.io/not-ready";
export const TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";

/** The NoSchedule taint the Ready condition calls for (TaintNodesByCondition), if any. */
function wantedTaint(node: Frozen<Node>): string | undefined {
  const status = findCondition(node.status?.conditions, "Ready")?.status;
  if (status === "False") return TAINT_NOT_READY;
  if (status === "Unknown") return TAINT_UNREACHABLE;
  return undefined;
}

function isConditionTaint(taint: Frozen<Taint>): boolean {
  return taint.effect === "NoSchedule" && (taint.key === TAINT_NOT_READY || taint.key === TAINT_UNREACHABLE);
}

/** The node's taints with the condition taints made to match, or undefined when they already do. */
export function retainted(node: Frozen<Node>): Taint[] | undefined {
  const wanted = wantedTaint(node);
  const taints = node.spec?.taints ?? [];
  const kept = taints.filter((taint) => !isConditionTaint(taint) || taint.key === wanted);
  const missing =
    wanted !== undefined && !kept.some((taint) => taint.key === wanted && isConditionTaint(taint));
  if (!missing && kept.length === taints.length) return undefined;
  const result = mutableCopy<Taint[]>(kept);
  if (missing) result.push({ key: wanted, effect: "NoSchedule" });
  return result;
}
