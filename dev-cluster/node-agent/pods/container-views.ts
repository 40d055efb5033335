import type { Frozen } from "../../../runtime/index.js";
import type { CachedPod, Container } from "../kinds.js";
import type { ContainerRecord, PodRecord } from "../state/pod-record.js";
import { formatGoDuration } from "./back-off.js";
import { type ContainerView, containerRecord } from "./pod-status.js";

export interface ViewInput {
  pod: CachedPod;
  record: PodRecord;
  /** Containers with a live process. */
  running: ReadonlyMap<string, { readonly ready: boolean; readonly started: boolean }>;
  /** A volume that cannot be set up keeps containers in ContainerCreating. */
  volumeError: string | undefined;
  terminating: boolean;
  now: number;
}

/** How each container (init and regular) looks now, by name: what its status reports. */
export function containerViews(input: ViewInput): Map<string, ContainerView> {
  const views = new Map<string, ContainerView>();
  const inits = input.pod.spec?.initContainers ?? [];
  for (const init of inits) views.set(init.name, containerView(input, init, true));
  for (const container of input.pod.spec?.containers ?? []) {
    views.set(container.name, containerView(input, container, false));
  }
  return views;
}

/** Whether an ended container starts again (restartPolicy; init containers only after a failure). */
export function willRestart(
  record: ContainerRecord,
  isInit: boolean,
  pod: CachedPod,
  terminating: boolean,
): boolean {
  const exitCode = record.terminated?.exitCode;
  if (terminating || exitCode === undefined) return false;
  const policy = pod.spec?.restartPolicy ?? "Always";
  if (isInit) return exitCode !== 0 && policy !== "Never";
  return policy === "Always" || (policy === "OnFailure" && exitCode !== 0);
}

/** True once every init container ended with 0. */
export function initContainersDone(pod: CachedPod, record: PodRecord): boolean {
  return (pod.spec?.initContainers ?? []).every(
    (init) => containerRecord(record, init.name)?.terminated?.exitCode === 0,
  );
}

function containerView(input: ViewInput, container: Frozen<Container>, isInit: boolean): ContainerView {
  const { pod, record, now, terminating } = input;
  const running = input.running.get(container.name);
  if (running) return { state: "running", ready: running.ready, started: running.started };
  const ours = containerRecord(record, container.name);
  if (ours?.pull && !terminating) {
    const { failedAt, retryAt, message } = ours.pull;
    // ErrImagePull right after the failed attempt, ImagePullBackOff while waiting for the next one.
    if (now < failedAt + Math.min(1000, (retryAt - failedAt) / 2)) {
      return { state: "waiting", reason: "ErrImagePull", message };
    }
    return {
      state: "waiting",
      reason: "ImagePullBackOff",
      message: `Back-off pulling image "${container.image ?? ""}"`,
    };
  }
  if (ours?.configError && !terminating) {
    return { state: "waiting", reason: "CreateContainerConfigError", message: ours.configError };
  }
  if (ours?.terminated) {
    if (willRestart(ours, isInit, pod, terminating) && (ours.restartAt ?? 0) > now) {
      const { name = "", namespace = "", uid = "" } = pod.metadata ?? {};
      const delay = formatGoDuration(ours.backOffMs ?? 0);
      return {
        state: "back-off",
        message: `back-off ${delay} restarting failed container=${container.name} pod=${name}_${namespace}(${uid})`,
      };
    }
    return { state: "terminated" };
  }
  if (input.volumeError && !terminating)
    return { state: "waiting", reason: "ContainerCreating", message: input.volumeError };
  if (!isInit && !initContainersDone(pod, record)) return { state: "waiting", reason: "PodInitializing" };
  return { state: "waiting", reason: isInit ? "PodInitializing" : "ContainerCreating" };
}
