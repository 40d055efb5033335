import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { type Clock, Manager, type ManagerExit, systemClock } from "../../runtime/index.js";
import { NODE_LEASE_NAMESPACE } from "./kinds.js";
import { addNodeLifecycleController } from "./node-lifecycle-controller.js";

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
  addNodeLifecycleController(manager, { clock, gracePeriodMs: options.gracePeriodMs ?? 40_000 });
  await manager.start();
  return { done: manager.done, stop: () => manager.stop() };
}
