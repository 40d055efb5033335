import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import {
  type Clock,
  type Frozen,
  type Lease,
  leaseKind,
  Manager,
  type ManagerExit,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type SharedInformer,
  systemClock,
  wireTime,
} from "../../runtime/index.js";
import { NODE_LEASE_NAMESPACE, type Node, type NodeCondition, nodeKind, type Taint } from "./kinds.js";
import { KUBELET_CONDITION_TYPES } from "./node-status.js";

export const TAINT_NOT_READY = "node.kubernetes.io/not-ready";
export const TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";

export interface NodeLifecycleOptions {
  kubeConfig: KubeConfig;
  log: Logger;
  clock?: Clock;
  /** A node silent for longer than this becomes Ready=Unknown (default 40 s, nodeMonitorGracePeriod). */
  gracePeriodMs?: number;
}

export interface RunningNodeLifecycle {
  readonly done: Promise<ManagerExit>;
  stop(): Promise<void>;
}

function timeOf(text: string | undefined): number {
  const parsed = Date.parse(text ?? "");
  return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
}

function readyOf(node: Frozen<Node>): Frozen<NodeCondition> | undefined {
  return node.status?.conditions?.find((condition) => condition.type === "Ready");
}

/** The kubelet's conditions turned Unknown: nobody knows any more how the node is. */
function silencedConditions(node: Frozen<Node>, now: number): NodeCondition[] {
  const conditions = mutableCopy<NodeCondition[]>(node.status?.conditions ?? []);
  const unknown = (condition: NodeCondition, never: boolean): NodeCondition => ({
    ...condition,
    status: "Unknown",
    reason: never ? "NodeStatusNeverUpdated" : "NodeStatusUnknown",
    message: never ? "Kubelet never posted node status." : "Kubelet stopped posting node status.",
    lastTransitionTime: wireTime(now),
  });
  const updated = conditions.map((condition) =>
    KUBELET_CONDITION_TYPES.includes(condition.type) ? unknown(condition, false) : condition,
  );
  for (const type of KUBELET_CONDITION_TYPES) {
    if (updated.some((condition) => condition.type === type)) continue;
    updated.push(unknown({ type, status: "Unknown", lastHeartbeatTime: wireTime(now) }, true));
  }
  return updated;
}

/** The NoSchedule taint the Ready condition calls for (TaintNodesByCondition), if any. */
function wantedTaint(node: Frozen<Node>): string | undefined {
  const status = readyOf(node)?.status;
  if (status === "False") return TAINT_NOT_READY;
  if (status === "Unknown") return TAINT_UNREACHABLE;
  return undefined;
}

/** The node's taints with the condition taints made to match, or undefined when they already do. */
function retainted(node: Frozen<Node>): Taint[] | undefined {
  const wanted = wantedTaint(node);
  const taints = node.spec?.taints ?? [];
  const isConditionTaint = (taint: Frozen<Taint>): boolean =>
    taint.effect === "NoSchedule" && (taint.key === TAINT_NOT_READY || taint.key === TAINT_UNREACHABLE);
  const kept = taints.filter((taint) => !isConditionTaint(taint) || taint.key === wanted);
  const missing =
    wanted !== undefined && !kept.some((taint) => taint.key === wanted && isConditionTaint(taint));
  if (!missing && kept.length === taints.length) return undefined;
  const result = mutableCopy<Taint[]>(kept);
  if (missing) result.push({ key: wanted, effect: "NoSchedule" });
  return result;
}

interface LifecycleDeps {
  manager: Manager;
  nodes: SharedInformer<Node>;
  leases: SharedInformer<Lease>;
  clock: Clock;
  gracePeriodMs: number;
}

/**
 * The node lifecycle controller, reduced: a node whose Lease and status heartbeat are both older
 * than the grace period gets its kubelet conditions set to Unknown; the Ready condition decides
 * the not-ready / unreachable NoSchedule taint. Pods are not evicted.
 */
function lifecycleReconciler({ manager, nodes, leases, clock, gracePeriodMs }: LifecycleDeps) {
  const client = manager.client.resource(nodeKind);
  return async ({ name, log }: ReconcileRequest): Promise<ReconcileResult | undefined> => {
    let node = nodes.get(name);
    if (!node) return undefined;
    const lease = leases.get({ namespace: NODE_LEASE_NAMESPACE, name });
    const now = clock.now();
    const lastSeen = Math.max(
      timeOf(lease?.spec?.renewTime),
      timeOf(readyOf(node)?.lastHeartbeatTime),
      timeOf(node.metadata?.creationTimestamp),
    );
    const silentMs = now - lastSeen;
    if (silentMs > gracePeriodMs && readyOf(node)?.status !== "Unknown") {
      log.info({ silentMs }, "the node stopped heartbeating: its status is now Unknown");
      const updated = mutableCopy<Node>(node);
      updated.status = { ...updated.status, conditions: silencedConditions(node, now) };
      node = await client.updateStatus(updated);
    }
    const taints = retainted(node);
    if (taints) {
      const updated = mutableCopy<Node>(node);
      updated.spec = { ...updated.spec, taints };
      await client.update(updated);
    }
    return silentMs > gracePeriodMs ? undefined : { requeueAfterMs: gracePeriodMs - silentMs + 1 };
  };
}

/** Starts the node lifecycle controller (kube-controller-manager's, in the dev cluster's process). */
export async function startNodeLifecycle(options: NodeLifecycleOptions): Promise<RunningNodeLifecycle> {
  const clock = options.clock ?? systemClock;
  const manager = new Manager({
    name: "node-lifecycle-controller",
    kubeConfig: options.kubeConfig,
    log: options.log,
    clock,
    namespace: NODE_LEASE_NAMESPACE,
  });
  const nodes = manager.informer(nodeKind);
  const leases = manager.informer(leaseKind);
  const controller = manager.controller({
    name: "node-lifecycle",
    workers: 2,
    reconcile: lifecycleReconciler({
      manager,
      nodes,
      leases,
      clock,
      gracePeriodMs: options.gracePeriodMs ?? 40_000,
    }),
  });
  controller.watch(nodes);
  controller.watch(leases, (lease) => (lease.metadata?.name ? [lease.metadata.name] : []));
  await manager.start();
  return { done: manager.done, stop: () => manager.stop() };
}
