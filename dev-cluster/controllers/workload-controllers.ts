import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { type Clock, type Controller, Manager, systemClock } from "../../runtime/index.js";
import type { ControllerSettings } from "./controller-settings.js";
import { addDaemonSetController } from "./daemon-set/daemon-set-controller.js";
import { addDeploymentController } from "./deployment/deployment-controller.js";
import { addEndpointSliceController } from "./endpoints/endpoint-slice-controller.js";
import { addEndpointsController } from "./endpoints/endpoints-controller.js";
import {
  addClaimBinderController,
  addClaimProtectionController,
  addVolumeBinderController,
  addVolumeProtectionController,
} from "./persistent-volume/persistent-volume-controller.js";
import { addReplicaSetController } from "./replica-set/replica-set-controller.js";
import { addDefaultServiceAccountController } from "./service-account/default-service-account-controller.js";

/** The controllers, by the names they log and count metrics under. */
export type WorkloadControllerName =
  | "deployment"
  | "replicaset"
  | "daemonset"
  | "endpoints"
  | "endpointslice"
  | "serviceaccount"
  | "persistentvolume-claims"
  | "persistentvolume-volumes"
  | "pvc-protection"
  | "pv-protection";

/** Workers per controller, as kube-controller-manager's --concurrent-* defaults. */
export const defaultWorkers: Readonly<Record<WorkloadControllerName, number>> = {
  deployment: 5,
  replicaset: 5,
  daemonset: 2,
  endpoints: 5,
  endpointslice: 5,
  serviceaccount: 1,
  // kube runs the binder's two loops and the protection controllers with one worker each.
  "persistentvolume-claims": 1,
  "persistentvolume-volumes": 1,
  "pvc-protection": 1,
  "pv-protection": 1,
};

const adders: Readonly<
  Record<WorkloadControllerName, (manager: Manager, settings: ControllerSettings) => Controller>
> = {
  deployment: addDeploymentController,
  replicaset: addReplicaSetController,
  daemonset: addDaemonSetController,
  endpoints: addEndpointsController,
  endpointslice: addEndpointSliceController,
  serviceaccount: addDefaultServiceAccountController,
  "persistentvolume-claims": addClaimBinderController,
  "persistentvolume-volumes": addVolumeBinderController,
  "pvc-protection": addClaimProtectionController,
  "pv-protection": addVolumeProtectionController,
};

export interface WorkloadControllerOptions {
  /** Default systemClock. */
  clock?: Clock;
  /** Workers per controller (default {@link defaultWorkers}). */
  workers?: Partial<Record<WorkloadControllerName, number>>;
  /** Run only these (default all). */
  controllers?: readonly WorkloadControllerName[];
}

/**
 * Adds the workload controllers to a manager that has not started: for a process that runs
 * them next to other controllers (the scheduler, say) on one shared informer cache.
 */
export function addWorkloadControllers(
  manager: Manager,
  options: WorkloadControllerOptions = {},
): Map<WorkloadControllerName, Controller> {
  const clock = options.clock ?? systemClock;
  const names = options.controllers ?? (Object.keys(adders) as WorkloadControllerName[]);
  const added = new Map<WorkloadControllerName, Controller>();
  for (const name of names) {
    const workers = options.workers?.[name] ?? defaultWorkers[name];
    added.set(name, adders[name](manager, { clock, workers }));
  }
  return added;
}

export interface StartWorkloadControllersOptions extends WorkloadControllerOptions {
  /** Where the API server is, and who to be there. */
  kubeConfig: KubeConfig;
  /** The root logger; the manager logs under `component: <name>`. */
  log: Logger;
  /** Field manager, event source and log component (default "kube-controller-manager"). */
  name?: string;
  registry?: Registry;
  /** Run only while holding this Lease (default: no leader election). */
  leaderElection?: { namespace: string; name: string; identity?: string };
  /** How long stop() waits for in-flight reconciles (default 30 s). */
  gracefulShutdownMs?: number;
}

/**
 * Starts the workload controllers in a manager of their own, as kube-controller-manager runs
 * them, and returns it: `stop()` stops them (in-flight reconciles finish first), `done` says
 * why they stopped.
 */
export async function startWorkloadControllers(options: StartWorkloadControllersOptions): Promise<Manager> {
  const manager = new Manager({
    name: options.name ?? "kube-controller-manager",
    kubeConfig: options.kubeConfig,
    log: options.log,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.leaderElection ? { leaderElection: options.leaderElection } : {}),
    ...(options.gracefulShutdownMs !== undefined ? { gracefulShutdownMs: options.gracefulShutdownMs } : {}),
  });
  addWorkloadControllers(manager, options);
  await manager.start();
  return manager;
}
