import type { JsonObject } from "../json.js";
import type { TableConvertor } from "../resource-type.js";
import { booleanAt, numberAt, objectAt, objectsAt, stringAt } from "./json-read.js";
import { age, ageColumn, column, nameColumn, nameOf, since, wideColumn } from "./table-format.js";

/**
 * `kubectl get pods`: the READY, STATUS and RESTARTS columns computed as kube's printPod does
 * (init container progress, waiting/terminated reasons, Terminating, restartable sidecars).
 */

interface PodSummary {
  reason: string;
  ready: number;
  total: number;
  restarts: number;
  lastRestart: string | undefined;
}

function later(a: string | undefined, b: string | undefined): string | undefined {
  if (b === undefined) return a;
  if (a === undefined) return b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function lastTermination(status: JsonObject): string | undefined {
  return stringAt(status, "lastState", "terminated", "finishedAt");
}

function isRestartable(container: JsonObject | undefined): boolean {
  return stringAt(container, "restartPolicy") === "Always";
}

function terminationText(terminated: JsonObject, prefix: string): string {
  const reason = stringAt(terminated, "reason") ?? "";
  if (reason !== "") return `${prefix}${reason}`;
  const signal = numberAt(terminated, "signal") ?? 0;
  return signal !== 0
    ? `${prefix}Signal:${signal}`
    : `${prefix}ExitCode:${numberAt(terminated, "exitCode") ?? 0}`;
}

/** Walks the init containers; returns true while the pod is still initializing. */
function summarizeInitContainers(
  pod: JsonObject,
  summary: PodSummary,
  sidecars: { restarts: number; last?: string },
): boolean {
  const initContainers = objectsAt(pod, "spec", "initContainers");
  const specs = new Map(initContainers.map((c) => [stringAt(c, "name") ?? "", c]));
  const statuses = objectsAt(pod, "status", "initContainerStatuses");
  for (const [index, status] of statuses.entries()) {
    const restarts = numberAt(status, "restartCount") ?? 0;
    summary.restarts += restarts;
    summary.lastRestart = later(summary.lastRestart, lastTermination(status));
    const restartable = isRestartable(specs.get(stringAt(status, "name") ?? ""));
    if (restartable) {
      sidecars.restarts += restarts;
      sidecars.last = later(sidecars.last, lastTermination(status));
    }
    const terminated = objectAt(status, "state", "terminated");
    const waitingReason = stringAt(status, "state", "waiting", "reason") ?? "";
    if (terminated && (numberAt(terminated, "exitCode") ?? 0) === 0) continue;
    if (restartable && booleanAt(status, "started") === true) {
      if (booleanAt(status, "ready") === true) summary.ready++;
      continue;
    }
    if (terminated) summary.reason = terminationText(terminated, "Init:");
    else if (waitingReason !== "" && waitingReason !== "PodInitializing")
      summary.reason = `Init:${waitingReason}`;
    else summary.reason = `Init:${index}/${initContainers.length}`;
    return true;
  }
  return false;
}

function summarizeContainers(pod: JsonObject, summary: PodSummary): void {
  let hasRunning = false;
  const statuses = objectsAt(pod, "status", "containerStatuses");
  for (const status of [...statuses].reverse()) {
    summary.restarts += numberAt(status, "restartCount") ?? 0;
    summary.lastRestart = later(summary.lastRestart, lastTermination(status));
    const waitingReason = stringAt(status, "state", "waiting", "reason") ?? "";
    const terminated = objectAt(status, "state", "terminated");
    if (waitingReason !== "") summary.reason = waitingReason;
    else if (terminated) summary.reason = terminationText(terminated, "");
    else if (booleanAt(status, "ready") === true && objectAt(status, "state", "running")) {
      hasRunning = true;
      summary.ready++;
    }
  }
  if (summary.reason === "Completed" && hasRunning) {
    const ready = objectsAt(pod, "status", "conditions").some(
      (c) => c.type === "Ready" && c.status === "True",
    );
    summary.reason = ready ? "Running" : "NotReady";
  }
}

export function summarizePod(pod: JsonObject): PodSummary {
  const phase = stringAt(pod, "status", "phase") ?? "";
  const summary: PodSummary = {
    reason: stringAt(pod, "status", "reason") || phase,
    ready: 0,
    total:
      objectsAt(pod, "spec", "containers").length +
      objectsAt(pod, "spec", "initContainers").filter(isRestartable).length,
    restarts: 0,
    lastRestart: undefined,
  };
  const conditions = objectsAt(pod, "status", "conditions");
  if (conditions.some((c) => c.type === "PodScheduled" && c.reason === "SchedulingGated"))
    summary.reason = "SchedulingGated";
  const sidecars: { restarts: number; last?: string } = { restarts: 0 };
  const initializing = summarizeInitContainers(pod, summary, sidecars);
  const initialized = conditions.some((c) => c.type === "Initialized" && c.status === "True");
  if (!initializing || initialized) {
    summary.restarts = sidecars.restarts;
    summary.lastRestart = sidecars.last;
    summarizeContainers(pod, summary);
  }
  const deleting = stringAt(pod, "metadata", "deletionTimestamp") !== undefined;
  if (deleting && stringAt(pod, "status", "reason") === "NodeLost") summary.reason = "Unknown";
  else if (deleting && phase !== "Succeeded" && phase !== "Failed") summary.reason = "Terminating";
  return summary;
}

function restartsText(summary: PodSummary, now: Date): string {
  if (summary.restarts === 0 || summary.lastRestart === undefined) return String(summary.restarts);
  return `${summary.restarts} (${since(summary.lastRestart, now)} ago)`;
}

function readinessGates(pod: JsonObject): string {
  const gates = objectsAt(pod, "spec", "readinessGates");
  if (gates.length === 0) return "<none>";
  const conditions = objectsAt(pod, "status", "conditions");
  const passing = gates.filter(
    (gate) => conditions.find((c) => c.type === gate.conditionType)?.status === "True",
  ).length;
  return `${passing}/${gates.length}`;
}

function podIp(pod: JsonObject): string {
  return (
    stringAt(objectsAt(pod, "status", "podIPs")[0], "ip") || stringAt(pod, "status", "podIP") || "<none>"
  );
}

export const podTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Ready", "The aggregate readiness state of this pod for accepting traffic."),
    column("Status", "The aggregate status of the containers in this pod."),
    column(
      "Restarts",
      "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
    ),
    ageColumn,
    wideColumn(
      "IP",
      "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
    ),
    wideColumn("Node", "NodeName indicates in which node this pod is scheduled."),
    wideColumn("Nominated Node", "nominatedNodeName is set when this pod preempts other pods on the node."),
    wideColumn("Readiness Gates", "If specified, all readiness gates will be evaluated for pod readiness."),
  ],
  cells(pod, now) {
    const summary = summarizePod(pod);
    return [
      nameOf(pod),
      `${summary.ready}/${summary.total}`,
      summary.reason,
      restartsText(summary, now),
      age(pod, now),
      podIp(pod),
      stringAt(pod, "spec", "nodeName") || "<none>",
      stringAt(pod, "status", "nominatedNodeName") || "<none>",
      readinessGates(pod),
    ];
  },
};
