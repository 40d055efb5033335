// The node condition that says whether the programs virt-handler runs are installed (pure, tested
// without a cluster). True means VMs cannot start here: the node is also unschedulable for them
// (node-state.ts). It is ours alone; the kubelet's conditions beside it are kept as they are.
import type { INodeCondition } from "kubernetes-models/v1/NodeCondition";
import type { Frozen } from "../../runtime/index.js";
import { HOST_TOOLS_FIX } from "../storage/host-commands.js";
import { describeMissingTools, type HostToolsReport } from "./host-tools.js";

export type NodeCondition = INodeCondition;

export const HOST_TOOLS_CONDITION = "KubeVirtHostToolsMissing";

/** The condition as it should read now (without its timestamps). */
function wantedCondition(report: HostToolsReport): Omit<NodeCondition, "type"> {
  if (report.missing.length === 0) {
    return {
      status: "False",
      reason: "HostToolsInstalled",
      message: `virt-handler found the programs it runs: ${report.found.join(", ")}`,
    };
  }
  return {
    status: "True",
    reason: "HostToolsMissing",
    message:
      `virt-handler cannot start VMs here: not on its PATH: ${describeMissingTools(report.missing)}. ` +
      `Install them (${HOST_TOOLS_FIX})`,
  };
}

/**
 * The node's conditions with ours made to match `report`, or undefined when it already does (so an
 * unchanged node gets no status write). The transition time moves only when the status changes.
 */
export function conditionsWithHostTools(
  conditions: Frozen<NodeCondition[]> | undefined,
  report: HostToolsReport,
  /** metav1.Time of now. */
  time: string,
): NodeCondition[] | undefined {
  const current = conditions ?? [];
  const previous = current.find((condition) => condition.type === HOST_TOOLS_CONDITION);
  const wanted = wantedCondition(report);
  const same =
    previous?.status === wanted.status &&
    previous.reason === wanted.reason &&
    previous.message === wanted.message;
  if (same) return undefined;
  const ours: NodeCondition = {
    type: HOST_TOOLS_CONDITION,
    ...wanted,
    lastHeartbeatTime: time,
    lastTransitionTime:
      previous?.status === wanted.status && previous.lastTransitionTime ? previous.lastTransitionTime : time,
  };
  const others = current.filter((condition) => condition.type !== HOST_TOOLS_CONDITION);
  return [...others.map((condition) => ({ ...condition })), ours];
}
