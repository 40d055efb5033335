import type { Clock, Manager } from "../runtime/index.js";
import { ClusterConfig } from "./config/cluster-config.js";
import { addDataVolumeController } from "./datavolume/data-volume-controller.js";
import { kubeVirtKind, vmiKind } from "./kinds.js";
import { addPoolController } from "./pool/pool-controller.js";
import { addReplicaSetController } from "./replicaset/replica-set-controller.js";
import type { StartBackoffOptions } from "./vm/start-failure.js";
import { addVmController } from "./vm/vm-controller.js";
import { addVmiController } from "./vmi/vmi-controller.js";
import { VmiPhaseMetrics } from "./vmi/vmi-phase-metrics.js";

export interface VirtControllerOptions {
  /** Where the KubeVirt CR (the configuration) and the leader Lease live. */
  namespace: string;
  /** The launcher pod's image. */
  launcherImage: string;
  /** The DataVolume importer pods' image; none: no DataVolume controller (tests of other parts). */
  importerImage?: string;
  clock: Clock;
  workers?: { vm?: number; vmi?: number };
  /** Crash-loop back-off; default KubeVirt's. */
  startBackoff?: StartBackoffOptions;
  /** VirtualMachineInstanceReplicaSet creates or deletes per reconcile; default KubeVirt's 250. */
  replicaSetBurst?: number;
}

/**
 * Adds virt-controller's parts to a manager: the configuration (KubeVirt CR) they share, the VM
 * and VMI controllers, the VMI replica set controller, the DataVolume controller, and the VMI phase metrics. main.ts builds the manager around it; tests
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
  addReplicaSetController(manager, {
    clock: options.clock,
    ...(options.replicaSetBurst ? { burstReplicas: options.replicaSetBurst } : {}),
  });
  addPoolController(manager, { clock: options.clock });
  if (options.importerImage !== undefined) {
    addDataVolumeController(manager, { importerImage: options.importerImage, clock: options.clock });
  }
  new VmiPhaseMetrics(
    manager.registry,
    manager.informer(vmiKind),
    () => manager.isLeader(),
    () => options.clock.now(),
  );
  return { config };
}
