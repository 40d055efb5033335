import {
  type Clock,
  type Frozen,
  findCondition,
  type Lease,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../runtime/index.js";
import { retainted } from "./condition-taints.js";
import { NODE_LEASE_NAMESPACE, type Node } from "./kinds.js";
import { silencedConditions } from "./silenced-conditions.js";

export interface NodeLifecycleReconcilerDeps {
  nodes: SharedInformer<Node>;
  leases: SharedInformer<Lease>;
  client: ResourceClient<Node>;
  clock: Clock;
  /** A node silent for longer than this becomes Ready=Unknown. */
  gracePeriodMs: number;
}

function timeOf(text: string | null | undefined): number {
  const parsed = Date.parse(text ?? "");
  return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
}

function readyOf(node: Frozen<Node>) {
  return findCondition(node.status?.conditions, "Ready");
}

/**
 * The node lifecycle controller, reduced: a node whose Lease and status heartbeat are both older
 * than the grace period gets its kubelet conditions set to Unknown; the Ready condition decides
 * the not-ready / unreachable NoSchedule taint. Pods are not evicted.
 */
export class NodeLifecycleReconciler {
  readonly #deps: NodeLifecycleReconcilerDeps;

  constructor(deps: NodeLifecycleReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile({ name, log }: ReconcileRequest): Promise<ReconcileResult> {
    const { nodes, leases, client, clock, gracePeriodMs } = this.#deps;
    let node = nodes.get(name);
    if (!node) return {};
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
    return silentMs > gracePeriodMs ? {} : { requeueAfterMs: gracePeriodMs - silentMs + 1 };
  }
}
