import {
  type Clock,
  type Frozen,
  isAlreadyExists,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
} from "../../runtime/index.js";
import type { Node } from "./kinds.js";
import type { NodeDefinition } from "./node-definition.js";
import { metadataPatch, reportedStatus, statusReportDue } from "./node-status.js";

export interface NodeStatusReconcilerDeps {
  nodes: SharedInformer<Node>;
  client: ResourceClient<Node>;
  /** The nodes this agent keeps, by name; any other key is left alone. */
  definitions: ReadonlyMap<string, NodeDefinition>;
  clock: Clock;
  statusReportIntervalMs: number;
}

/**
 * kubelet's registration and status loop, level-based, for every node this agent keeps: a missing
 * node is registered; labels and annotations it owns are put back; the status is reported when
 * something it owns differs (Ready not True, capacity changed) or the last heartbeat is a report
 * interval old.
 */
export class NodeStatusReconciler {
  readonly #deps: NodeStatusReconcilerDeps;

  constructor(deps: NodeStatusReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile({ name, log }: ReconcileRequest): Promise<ReconcileResult> {
    const { nodes, client, definitions, clock, statusReportIntervalMs } = this.#deps;
    const definition = definitions.get(name);
    if (!definition) return {};
    const cached = nodes.get(name);
    if (!cached) {
      await this.#register(definition, log);
      return {};
    }
    let node: Frozen<Node> = cached;
    const patch = metadataPatch(node, definition);
    if (patch) node = await client.mergePatch({ name }, patch);
    const now = clock.now();
    const report = statusReportDue(node, definition, now, statusReportIntervalMs);
    if (!report.due) return { requeueAfterMs: report.nextInMs };
    const updated = mutableCopy<Node>(node);
    updated.status = reportedStatus(node, definition, now);
    await client.updateStatus(updated);
    return { requeueAfterMs: statusReportIntervalMs };
  }

  async #register(definition: NodeDefinition, log: ReconcileRequest["log"]): Promise<void> {
    const node: Node = {
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name: definition.name,
        labels: { ...definition.labels },
        annotations: { ...definition.annotations },
      },
      spec: definition.taints.length > 0 ? { taints: [...definition.taints] } : {},
    };
    // Nodes may carry their status on create; it is written again once the node is cached.
    node.status = reportedStatus(node, definition, this.#deps.clock.now());
    try {
      await this.#deps.client.create(node);
      log.info({ simulated: definition.simulated }, "registered the node");
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
  }
}
