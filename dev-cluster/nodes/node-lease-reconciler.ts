import {
  type Clock,
  isAlreadyExists,
  type Lease,
  microTime,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../runtime/index.js";
import { NODE_LEASE_NAMESPACE, type Node } from "./kinds.js";

export interface NodeLeaseReconcilerDeps {
  nodes: SharedInformer<Node>;
  leases: SharedInformer<Lease>;
  client: ResourceClient<Lease>;
  /** The nodes this agent heartbeats for; any other key is left alone. */
  nodeNames: ReadonlySet<string>;
  clock: Clock;
  leaseDurationSeconds: number;
  renewIntervalMs: number;
}

/**
 * kubelet's node lease heartbeat: the Lease `kube-node-lease/<node>` is created, owned by its
 * Node (so it goes with it), and its renewTime moved forward every renew interval.
 */
export class NodeLeaseReconciler {
  readonly #deps: NodeLeaseReconcilerDeps;

  constructor(deps: NodeLeaseReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile({ name }: ReconcileRequest): Promise<ReconcileResult> {
    const { nodes, leases, client, nodeNames, clock, leaseDurationSeconds, renewIntervalMs } = this.#deps;
    if (!nodeNames.has(name)) return {};
    const nodeUid = nodes.get(name)?.metadata?.uid;
    const owners = nodeUid ? [{ apiVersion: "v1", kind: "Node", name, uid: nodeUid }] : undefined;
    const cached = leases.get({ namespace: NODE_LEASE_NAMESPACE, name });
    const now = clock.now();
    const spec = { holderIdentity: name, leaseDurationSeconds, renewTime: microTime(now) };
    if (!cached) {
      try {
        await client.create({
          metadata: { name, namespace: NODE_LEASE_NAMESPACE, ...(owners ? { ownerReferences: owners } : {}) },
          spec,
        });
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
      return { requeueAfterMs: renewIntervalMs };
    }
    const elapsed = now - Date.parse(cached.spec?.renewTime ?? "");
    const ownerMissing = owners && !cached.metadata?.ownerReferences?.some((owner) => owner.uid === nodeUid);
    const foreign =
      cached.spec?.holderIdentity !== name || cached.spec?.leaseDurationSeconds !== leaseDurationSeconds;
    if (!(elapsed >= renewIntervalMs) && !ownerMissing && !foreign) {
      return { requeueAfterMs: renewIntervalMs - elapsed };
    }
    const renewed = mutableCopy<Lease>(cached);
    renewed.spec = { ...renewed.spec, ...spec };
    if (ownerMissing && renewed.metadata) renewed.metadata.ownerReferences = owners;
    // A conflict throws and retries against the newer lease.
    await client.update(renewed);
    return { requeueAfterMs: renewIntervalMs };
  }
}
