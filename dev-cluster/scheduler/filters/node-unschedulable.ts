import { TAINT_UNSCHEDULABLE } from "../node-info.js";
import { type Filter, unresolvable } from "./filter.js";
import { tolerates } from "./taint-toleration.js";

const unschedulableTaint = { key: TAINT_UNSCHEDULABLE, effect: "NoSchedule" } as const;

/** NodeUnschedulable: a cordoned node takes only pods that tolerate node.kubernetes.io/unschedulable. */
export const nodeUnschedulable: Filter = (pod, node) => {
  if (!node.unschedulable || tolerates(pod.tolerations, unschedulableTaint)) return undefined;
  return unresolvable("node(s) were unschedulable");
};
