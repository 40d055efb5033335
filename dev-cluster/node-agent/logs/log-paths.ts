import { join } from "node:path";
import type { PodIdentity } from "../kinds.js";

/** kubelet's layout: `<logs>/pods/<namespace>_<pod>_<uid>/<container>/<restartCount>.log`. */
export function podLogDir(logsRoot: string, pod: PodIdentity): string {
  return join(logsRoot, "pods", `${pod.namespace}_${pod.name}_${pod.uid}`);
}

export function containerLogPath(
  logsRoot: string,
  pod: PodIdentity,
  container: string,
  instance: number,
): string {
  return join(podLogDir(logsRoot, pod), container, `${instance}.log`);
}

/** When the agent saw the log grow: `<size> <epoch ms>` lines, next to the log. */
export function logStampsPath(logPath: string): string {
  return `${logPath}.stamps`;
}
