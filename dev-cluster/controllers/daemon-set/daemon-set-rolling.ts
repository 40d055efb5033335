import type { Frozen } from "../../../runtime/index.js";
import type { DaemonSet, Node, Pod } from "../kinds.js";
import { isPodAvailable } from "../pods/pod-state.js";
import { scaledValue } from "../rollout/int-or-percent.js";
import { controllerRevisionHashLabel } from "./daemon-pod.js";
import { nodeVerdict } from "./node-eligibility.js";

/**
 * The old pods a RollingUpdate step deletes (rollingUpdate, without surge): every old pod that
 * is not available anyway, plus as many available old pods as maxUnavailable leaves room for,
 * counting as unavailable the nodes whose pod is new but not available yet and the nodes that
 * wait for a pod. The manage loop then creates the new pods on those nodes.
 */
export function rollingUpdateDeletions(
  daemonSet: Frozen<DaemonSet>,
  nodes: readonly Frozen<Node>[],
  podsByNode: ReadonlyMap<string, readonly Frozen<Pod>[]>,
  hash: string,
  nowMs: number,
): Frozen<Pod>[] {
  const wanted = new Map(podsByNode);
  let desired = 0;
  for (const node of nodes) {
    if (!nodeVerdict(node, daemonSet).shouldRun) continue;
    desired++;
    const name = node.metadata?.name ?? "";
    if (!wanted.has(name)) wanted.set(name, []);
  }
  const maxUnavailable = maxUnavailableOf(daemonSet, desired);
  const minReadySeconds = daemonSet.spec?.minReadySeconds ?? 0;
  let unavailable = 0;
  const replacements: Frozen<Pod>[] = [];
  const candidates: Frozen<Pod>[] = [];
  for (const [, pods] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
    const found = newAndOldPod(pods, hash);
    if (!found) {
      unavailable++; // several pods of one kind here: the manage loop cleans up first
      continue;
    }
    const { newPod, oldPod } = found;
    if ((newPod && oldPod) || (!newPod && !oldPod)) unavailable++;
    else if (newPod) {
      if (!isPodAvailable(newPod, minReadySeconds, nowMs)) unavailable++;
    } else if (oldPod) {
      if (!isPodAvailable(oldPod, minReadySeconds, nowMs)) replacements.push(oldPod);
      else if (unavailable < maxUnavailable) candidates.push(oldPod);
    }
  }
  const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
  return [...replacements, ...candidates.slice(0, room)];
}

/** maxUnavailable as a count of nodes (percentages round up); at least one when nothing else moves. */
export function maxUnavailableOf(daemonSet: Frozen<DaemonSet>, desired: number): number {
  const rolling = daemonSet.spec?.updateStrategy?.rollingUpdate;
  const unavailable = scaledValue(rolling?.maxUnavailable, desired, true, 1);
  return desired > 0 && unavailable === 0 ? 1 : unavailable;
}

/** The node's one new and one old pod, ignoring terminating ones; undefined when it has two of a kind. */
function newAndOldPod(
  pods: readonly Frozen<Pod>[],
  hash: string,
): { newPod?: Frozen<Pod>; oldPod?: Frozen<Pod> } | undefined {
  const found: { newPod?: Frozen<Pod>; oldPod?: Frozen<Pod> } = {};
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const slot = pod.metadata?.labels?.[controllerRevisionHashLabel] === hash ? "newPod" : "oldPod";
    if (found[slot]) return undefined;
    found[slot] = pod;
  }
  return found;
}
