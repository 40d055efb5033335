import { type Frozen, findCondition, jsonEqual, mutableCopy, wireTime } from "../../runtime/index.js";
import type { Node, NodeCondition, NodeStatus } from "./kinds.js";
import type { NodeDefinition } from "./node-definition.js";

/** The conditions kubelet owns, as a healthy kubelet reports them. */
const HEALTHY_CONDITIONS: readonly Omit<NodeCondition, "lastHeartbeatTime" | "lastTransitionTime">[] = [
  {
    type: "MemoryPressure",
    status: "False",
    reason: "KubeletHasSufficientMemory",
    message: "kubelet has sufficient memory available",
  },
  {
    type: "DiskPressure",
    status: "False",
    reason: "KubeletHasNoDiskPressure",
    message: "kubelet has no disk pressure",
  },
  {
    type: "PIDPressure",
    status: "False",
    reason: "KubeletHasSufficientPID",
    message: "kubelet has sufficient PID available",
  },
  { type: "Ready", status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" },
];

export const KUBELET_CONDITION_TYPES: readonly string[] = HEALTHY_CONDITIONS.map(
  (condition) => condition.type,
);

function conditionOf(
  status: Frozen<NodeStatus> | undefined,
  type: string,
): Frozen<NodeCondition> | undefined {
  return findCondition(status?.conditions, type);
}

/**
 * The status to write: the agent's own parts (its capacity and allocatable entries, its
 * conditions with a fresh heartbeat, addresses, system info) over what is there, so that
 * resources or conditions others added (a device plugin's `devices.kubevirt.io/kvm`) survive.
 */
export function reportedStatus(node: Frozen<Node>, definition: NodeDefinition, now: number): NodeStatus {
  const existing = mutableCopy<NodeStatus>(node.status ?? {});
  const heartbeat = wireTime(now);
  const ours = HEALTHY_CONDITIONS.map((healthy): NodeCondition => {
    const previous = conditionOf(node.status, healthy.type);
    const unchanged = previous?.status === healthy.status && previous.lastTransitionTime;
    return {
      ...healthy,
      lastHeartbeatTime: heartbeat,
      lastTransitionTime: unchanged ? (previous.lastTransitionTime as string) : heartbeat,
    };
  });
  const others = (existing.conditions ?? []).filter(
    (condition) => !KUBELET_CONDITION_TYPES.includes(condition.type),
  );
  return {
    ...existing,
    capacity: { ...existing.capacity, ...definition.capacity },
    allocatable: { ...existing.allocatable, ...definition.allocatable },
    conditions: [...others, ...ours],
    addresses: [...definition.addresses],
    nodeInfo: { ...definition.nodeInfo },
  };
}

function ownedEntriesMatch(
  actual: Readonly<Record<string, unknown>> | undefined,
  wanted: Readonly<Record<string, string>>,
): boolean {
  return Object.entries(wanted).every(([name, value]) => actual?.[name] === value);
}

function conditionsHealthy(status: Frozen<NodeStatus> | undefined): boolean {
  return HEALTHY_CONDITIONS.every((healthy) => {
    const actual = conditionOf(status, healthy.type);
    return actual?.status === healthy.status && actual.reason === healthy.reason;
  });
}

/**
 * Whether the node's status needs a report now, and if not, in how many ms it will: at once when
 * anything the agent owns differs (Ready went Unknown, capacity changed), else when the last
 * heartbeat is `reportIntervalMs` old (kubelet's nodeStatusReportFrequency).
 */
export function statusReportDue(
  node: Frozen<Node>,
  definition: NodeDefinition,
  now: number,
  reportIntervalMs: number,
): { due: boolean; nextInMs: number } {
  const status = node.status;
  const current =
    conditionsHealthy(status) &&
    ownedEntriesMatch(status?.capacity, definition.capacity) &&
    ownedEntriesMatch(status?.allocatable, definition.allocatable) &&
    jsonEqual(status?.addresses ?? [], definition.addresses) &&
    jsonEqual(status?.nodeInfo ?? {}, definition.nodeInfo);
  const heartbeat = Date.parse(conditionOf(status, "Ready")?.lastHeartbeatTime ?? "");
  const elapsed = now - heartbeat;
  if (!current || Number.isNaN(heartbeat) || elapsed >= reportIntervalMs) return { due: true, nextInMs: 0 };
  return { due: false, nextInMs: reportIntervalMs - elapsed };
}

/** A merge patch setting the labels and annotations the agent owns, or undefined when they are set. */
export function metadataPatch(node: Frozen<Node>, definition: NodeDefinition): unknown {
  const labels = Object.fromEntries(
    Object.entries(definition.labels).filter(([key, value]) => node.metadata?.labels?.[key] !== value),
  );
  const annotations = Object.fromEntries(
    Object.entries(definition.annotations).filter(
      ([key, value]) => node.metadata?.annotations?.[key] !== value,
    ),
  );
  if (Object.keys(labels).length === 0 && Object.keys(annotations).length === 0) return undefined;
  return { metadata: { labels, annotations } };
}
