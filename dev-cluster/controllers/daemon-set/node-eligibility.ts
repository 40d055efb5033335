import type { Frozen } from "../../../runtime/index.js";
import type { DaemonSet, Node } from "../kinds.js";
import { podFitsNode } from "../scheduling/node-affinity.js";
import { untoleratedTaint } from "../scheduling/taints.js";
import { withDaemonTolerations } from "./daemon-pod.js";

export interface NodeVerdict {
  /** A daemon pod should be created here. */
  shouldRun: boolean;
  /** A daemon pod already here may stay (it tolerates the node's NoExecute taints). */
  shouldContinueRunning: boolean;
}

/**
 * Whether a DaemonSet belongs on a node (NodeShouldRunDaemonPod): its template's nodeName,
 * nodeSelector and required node affinity must admit the node, and its tolerations (with the
 * daemon defaults) must tolerate the node's NoSchedule and NoExecute taints. A pod already
 * running stays as long as no NoExecute taint is untolerated.
 */
export function nodeVerdict(node: Frozen<Node>, daemonSet: Frozen<DaemonSet>): NodeVerdict {
  const spec = daemonSet.spec?.template?.spec;
  const nodeName = node.metadata?.name ?? "";
  if (spec?.nodeName && spec.nodeName !== nodeName) return { shouldRun: false, shouldContinueRunning: false };
  if (!podFitsNode(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints ?? [];
  const tolerations = withDaemonTolerations(spec);
  if (untoleratedTaint(taints, tolerations, ["NoSchedule", "NoExecute"])) {
    return { shouldRun: false, shouldContinueRunning: !untoleratedTaint(taints, tolerations, ["NoExecute"]) };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}
