import type { Clock, Manager } from "../runtime/index.js";
import { ClusterConfig } from "./config/cluster-config.js";
import { kubeVirtKind, vmiKind } from "./kinds.js";
import type { StartBackoffOptions } from "./vm/start-failure.js";
import { addVmController } from "./vm/vm-controller.js";
import { addVmiController } from "./vmi/vmi-controller.js";
import { VmiPhaseMetrics } from "./vmi/vmi-phase-metrics.js";

export interface VirtControllerOptions {
  /** Where the KubeVirt CR (the configuration) and the leader Lease live. */
  namespace: string;
  /** The launcher pod's image. */
  launcherImage: string;
  clock: Clock;
  workers?: { vm?: number; vmi?: number };
  /** Crash-loop back-off; default KubeVirt's. */
  startBackoff?: StartBackoffOptions;
}

/**
 * Adds virt-controller's parts to a manager: the configuration (KubeVirt CR) they share, the VM
 * and VMI controllers, and the VMI phase metrics. main.ts builds the manager around it; tests
 * run it in-process.
 */
export function addVirtControllers(
  manager: Manager,
  options: VirtControllerOptions,
): { config: ClusterConfig } {
  const config = new ClusterConfig(manager.informer(kubeVirtKind), options.namespace, manager.log);
  addVmController(manager, {
    config,
    clock: options.clock,
    ...(options.workers?.vm ? { workers: options.workers.vm } : {}),
    ...(options.startBackoff ? { startBackoff: options.startBackoff } : {}),
  });
  addVmiController(manager, {
    config,
    launcherImage: options.launcherImage,
    clock: options.clock,
    ...(options.workers?.vmi ? { workers: options.workers.vmi } : {}),
  });
  new VmiPhaseMetrics(
    manager.registry,
    manager.informer(vmiKind),
    () => manager.isLeader(),
    () => options.clock.now(),
  );
  return { config };
}
