import type { Frozen } from "../../../runtime/index.js";
import type { Taint, Toleration } from "../kinds.js";
import { type Filter, unresolvable } from "./filter.js";

/** v1.Toleration.ToleratesTaint. */
export function toleratesTaint(toleration: Frozen<Toleration>, taint: Frozen<Taint>): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? "Equal") {
    case "Exists":
      return true;
    case "Equal":
      return (toleration.value ?? "") === (taint.value ?? "");
    default:
      return false;
  }
}

export function tolerates(tolerations: readonly Frozen<Toleration>[], taint: Frozen<Taint>): boolean {
  return tolerations.some((toleration) => toleratesTaint(toleration, taint));
}

/** TaintToleration: the first NoSchedule or NoExecute taint the pod does not tolerate rejects the node. */
export const taintToleration: Filter = (pod, node) => {
  const untolerated = node.taints.find(
    (taint) =>
      (taint.effect === "NoSchedule" || taint.effect === "NoExecute") && !tolerates(pod.tolerations, taint),
  );
  if (!untolerated) return undefined;
  return unresolvable(`node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ""}}`);
};
