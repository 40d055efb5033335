import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { type Clock, Manager, type ManagerExit, systemClock } from "../../runtime/index.js";
import { NODE_LEASE_NAMESPACE } from "./kinds.js";
import { type MachineFacts, readMachineFacts } from "./machine.js";
import {
  type LocalNodeOptions,
  localNodeDefinition,
  type NodeDefinition,
  type SimulatedNodesOptions,
  simulatedNodeDefinitions,
} from "./node-definition.js";
import { addNodeLeaseController } from "./node-lease-controller.js";
import { addNodeStatusController } from "./node-status-controller.js";

export interface HeartbeatOptions {
  /** The node Lease's duration (default 40 s, kubelet's). */
  leaseDurationSeconds?: number;
  /** How often the Lease is renewed (default 10 s, a quarter of the duration as kubelet does). */
  leaseRenewIntervalMs?: number;
  /** How often the status is reported when nothing changed (default 5 min, kubelet's nodeStatusReportFrequency). */
  statusReportIntervalMs?: number;
}

export interface NodesOptions extends HeartbeatOptions {
  kubeConfig: KubeConfig;
  log: Logger;
  clock?: Clock;
  /** The machine's own node (default: one named after the hostname); false registers none. */
  localNode?: LocalNodeOptions | false;
  /** kwok-style simulated nodes, one group or several (different sizes, labels, taints). */
  simulated?: SimulatedNodesOptions | readonly SimulatedNodesOptions[];
  /** Where the local node's ephemeral-storage capacity is measured (default "/"). */
  storagePath?: string;
  /** Test seam: these facts instead of the machine's. */
  machine?: MachineFacts;
}

export interface RunningNodes {
  /** The nodes this agent registered and keeps Ready, local first. */
  readonly nodeNames: readonly string[];
  readonly done: Promise<ManagerExit>;
  stop(): Promise<void>;
}

function definitionsOf(facts: MachineFacts, options: NodesOptions): NodeDefinition[] {
  const local = options.localNode === false ? [] : [localNodeDefinition(facts, options.localNode ?? {})];
  const groups = options.simulated === undefined ? [] : [options.simulated].flat();
  const definitions = [...local, ...groups.flatMap((group) => simulatedNodeDefinitions(facts, group))];
  const names = new Set<string>();
  for (const { name } of definitions) {
    if (names.has(name))
      throw new Error(`two nodes would be named "${name}": give simulated groups distinct prefixes`);
    names.add(name);
  }
  return definitions;
}

/**
 * Registers the local node and the simulated ones and keeps them Ready, as kubelet (and kwok for
 * the simulated ones) would: a Lease renewed every 10 s, status reported when something changed
 * or every 5 min. Level-based: restarted, it adopts the nodes and leases it finds.
 */
export async function startNodes(options: NodesOptions): Promise<RunningNodes> {
  const clock = options.clock ?? systemClock;
  const facts = options.machine ?? (await readMachineFacts(options.storagePath));
  const definitions = new Map(
    definitionsOf(facts, options).map((definition) => [definition.name, definition]),
  );
  const nodeNames = new Set(definitions.keys());
  const leaseDurationSeconds = options.leaseDurationSeconds ?? 40;
  const manager = new Manager({
    name: "kubelet",
    kubeConfig: options.kubeConfig,
    log: options.log,
    clock,
    namespace: NODE_LEASE_NAMESPACE,
  });
  addNodeStatusController(manager, {
    definitions,
    clock,
    statusReportIntervalMs: options.statusReportIntervalMs ?? 5 * 60_000,
  });
  addNodeLeaseController(manager, {
    nodeNames,
    clock,
    leaseDurationSeconds,
    renewIntervalMs: options.leaseRenewIntervalMs ?? (leaseDurationSeconds * 1000) / 4,
  });
  await manager.start();
  return { nodeNames: [...nodeNames], done: manager.done, stop: () => manager.stop() };
}
