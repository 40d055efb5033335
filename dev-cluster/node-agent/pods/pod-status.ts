import { type Frozen, wireTime } from "../../../runtime/index.js";
import type {
  CachedPod,
  Container,
  ContainerState,
  ContainerStatus,
  PodCondition,
  PodStatus,
} from "../kinds.js";
import type { ContainerRecord, PodRecord, TerminatedRecord } from "../state/pod-record.js";

/** What the agent knows of a container right now, beyond its record. */
export type ContainerView =
  | { state: "running"; ready: boolean; started: boolean }
  /** Not running and never ran, or cannot start: ContainerCreating, PodInitializing, ErrImagePull, ... */
  | { state: "waiting"; reason: string; message?: string }
  /** Ended, restarts once the back-off has passed: CrashLoopBackOff. */
  | { state: "back-off"; message: string }
  /** Ended for good (or until the next sync restarts it). */
  | { state: "terminated" };

export interface PodStatusInput {
  pod: CachedPod;
  record: PodRecord;
  views: ReadonlyMap<string, ContainerView>;
  /** Deletion in progress: the pod ends as if its restartPolicy were Never. */
  terminating: boolean;
  now: number;
}

/** The pod status a kubelet would report for this state, keeping what others own (qosClass, other conditions). */
export function computePodStatus(input: PodStatusInput): PodStatus {
  const { pod, record } = input;
  const previous = (pod.status ?? {}) as Frozen<PodStatus>;
  const spec = pod.spec;
  const inits = spec?.initContainers ?? [];
  const containers = spec?.containers ?? [];
  const phase = podPhase(input);
  const status: PodStatus = {
    ...(structuredClone(previous) as PodStatus),
    phase,
    conditions: conditions(input, phase),
    containerStatuses: containers.map((container) => containerStatus(container, input)),
  };
  if (inits.length > 0)
    status.initContainerStatuses = inits.map((container) => containerStatus(container, input));
  if (record.startTime) status.startTime = record.startTime;
  if (record.network) {
    status.podIP = record.network.podIP;
    status.podIPs = [{ ip: record.network.podIP }];
    status.hostIP = record.network.hostIP;
    status.hostIPs = [{ ip: record.network.hostIP }];
  }
  return status;
}

/** kubelet's getPhase. */
export function podPhase(input: PodStatusInput): NonNullable<PodStatus["phase"]> {
  const spec = input.pod.spec;
  const policy = input.terminating ? "Never" : (spec?.restartPolicy ?? "Always");
  for (const init of spec?.initContainers ?? []) {
    const view = input.views.get(init.name);
    const ended = containerRecord(input.record, init.name)?.terminated;
    if (view?.state === "terminated" && ended?.exitCode === 0) continue;
    if (view?.state === "terminated" && policy === "Never") return "Failed";
    return "Pending";
  }
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const container of spec?.containers ?? []) {
    const view = input.views.get(container.name);
    const ended = containerRecord(input.record, container.name)?.terminated;
    if (view?.state === "running") running++;
    else if (view?.state === "back-off") stopped++;
    else if (view?.state === "terminated" && ended) {
      stopped++;
      if (ended.exitCode === 0) succeeded++;
    } else waiting++;
  }
  if (waiting > 0) return "Pending";
  if (running > 0) return "Running";
  if (stopped === 0) return "Pending";
  if (policy === "Always") return "Running";
  if (stopped === succeeded) return "Succeeded";
  return policy === "OnFailure" ? "Running" : "Failed";
}

function conditions(input: PodStatusInput, phase: string): PodCondition[] {
  const { pod, record, views } = input;
  const terminal = phase === "Succeeded" || phase === "Failed";
  const incomplete = (pod.spec?.initContainers ?? [])
    .filter((init) => {
      const ended = containerRecord(record, init.name)?.terminated;
      return !(views.get(init.name)?.state === "terminated" && ended?.exitCode === 0);
    })
    .map((init) => init.name);
  const unready = (pod.spec?.containers ?? [])
    .filter((container) => {
      const view = views.get(container.name);
      return !(view?.state === "running" && view.ready);
    })
    .map((container) => container.name);
  const sandboxReady = record.network !== undefined && !record.networkRemoved;
  const readiness = (): Omit<PodCondition, "type"> => {
    if (terminal) return { status: "False", reason: "PodCompleted" };
    if (unready.length === 0) return { status: "True" };
    return {
      status: "False",
      reason: "ContainersNotReady",
      message: `containers with unready status: [${unready.join(" ")}]`,
    };
  };
  const ours: PodCondition[] = [
    { type: "PodReadyToStartContainers", status: sandboxReady ? "True" : "False" },
    incomplete.length === 0
      ? {
          type: "Initialized",
          status: "True",
          ...(terminal && pod.spec?.initContainers ? { reason: "PodCompleted" } : {}),
        }
      : {
          type: "Initialized",
          status: "False",
          reason: "ContainersNotInitialized",
          message: `containers with incomplete status: [${incomplete.join(" ")}]`,
        },
    { type: "Ready", ...readiness() },
    { type: "ContainersReady", ...readiness() },
  ];
  return mergeConditions(pod.status?.conditions ?? [], ours, input.now, record.startTime);
}

/** Ours replace theirs by type, keeping lastTransitionTime while the status stays; others are kept. */
function mergeConditions(
  existing: readonly Frozen<PodCondition>[],
  ours: PodCondition[],
  now: number,
  startTime: string | undefined,
): PodCondition[] {
  const byType = new Map(existing.map((condition) => [condition.type, condition]));
  const merged = ours.map((condition) => {
    const before = byType.get(condition.type);
    const lastTransitionTime =
      before?.status === condition.status && before.lastTransitionTime
        ? before.lastTransitionTime
        : wireTime(now);
    return { ...condition, lastTransitionTime };
  });
  const ourTypes = new Set(ours.map((condition) => condition.type));
  const others = existing
    .filter((condition) => !ourTypes.has(condition.type))
    .map((c) => structuredClone(c) as PodCondition);
  if (!byType.has("PodScheduled")) {
    others.push({ type: "PodScheduled", status: "True", lastTransitionTime: startTime ?? wireTime(now) });
  }
  return [...merged, ...others];
}

function containerStatus(container: Frozen<Container>, input: PodStatusInput): ContainerStatus {
  const record = containerRecord(input.record, container.name);
  const view = input.views.get(container.name) ?? { state: "waiting", reason: "ContainerCreating" };
  const running = view.state === "running";
  const status: ContainerStatus = {
    name: container.name,
    image: container.image ?? "",
    imageID: record?.imageID ?? "",
    ready: running && view.ready,
    restartCount: record?.restartCount ?? 0,
    started: running && view.started,
    state: currentState(view, record),
    lastState: lastState(view, record),
  };
  if (record?.containerID) status.containerID = record.containerID;
  return status;
}

function currentState(view: ContainerView, record: ContainerRecord | undefined): ContainerState {
  switch (view.state) {
    case "running":
      return { running: { startedAt: record?.startedAt ?? "" } };
    case "waiting":
      return { waiting: { reason: view.reason, ...(view.message ? { message: view.message } : {}) } };
    case "back-off":
      return { waiting: { reason: "CrashLoopBackOff", message: view.message } };
    case "terminated":
      return record?.terminated
        ? { terminated: terminatedState(record.terminated) }
        : { waiting: { reason: "ContainerCreating" } };
  }
}

function lastState(view: ContainerView, record: ContainerRecord | undefined): ContainerState {
  // While it waits to restart, the instance that just ended is the last state.
  const last =
    view.state === "back-off" || view.state === "waiting"
      ? (record?.terminated ?? record?.lastTerminated)
      : record?.lastTerminated;
  return last ? { terminated: terminatedState(last) } : {};
}

function terminatedState(ended: TerminatedRecord): NonNullable<ContainerState["terminated"]> {
  return {
    exitCode: ended.exitCode,
    reason: ended.reason,
    ...(ended.message ? { message: ended.message } : {}),
    ...(ended.startedAt ? { startedAt: ended.startedAt } : {}),
    finishedAt: ended.finishedAt,
    ...(ended.containerID ? { containerID: ended.containerID } : {}),
  };
}

export function containerRecord(record: PodRecord, name: string): ContainerRecord | undefined {
  return record.containers.find((container) => container.name === name);
}
