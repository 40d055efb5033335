import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import {
  type Clock,
  type Controller,
  Manager,
  type ManagerExit,
  objectKey,
  refKey,
} from "../../runtime/index.js";
import { ClaimProvisioningReconciler } from "./claim-provisioning-reconciler.js";
import { nodeKind, persistentVolumeClaimKind, persistentVolumeKind, storageClassKind } from "./kinds.js";
import { VolumeDeletionReconciler } from "./volume-deletion-reconciler.js";
import { VolumeDirectories } from "./volume-directory.js";

export interface LocalPathProvisionerSettings {
  /** The absolute host directory whose `pvc-*` children are the volumes. */
  baseDir: string;
  /** The provisioner's own node: a claim without a selected node is put there. */
  nodeName: string;
}

/**
 * Adds the provisioner's two controllers to a manager that has not started: `local-path-provision`
 * (claims → directory + PV) and `local-path-delete` (Released PVs of ours → no directory, no PV).
 */
export function addLocalPathProvisioner(
  manager: Manager,
  settings: LocalPathProvisionerSettings,
): { provision: Controller; delete: Controller } {
  const claims = manager.informer(persistentVolumeClaimKind);
  const volumes = manager.informer(persistentVolumeKind);
  const storageClasses = manager.informer(storageClassKind);
  const nodes = manager.informer(nodeKind);
  const directories = new VolumeDirectories(settings.baseDir);
  const volumeClient = manager.client.resource(persistentVolumeKind);
  const provisioning = new ClaimProvisioningReconciler({
    claims,
    volumes,
    storageClasses,
    nodes,
    volumeClient,
    directories,
    events: manager.events,
    nodeName: settings.nodeName,
  });
  const provision = manager.controller({
    name: "local-path-provision",
    needsLeaderElection: false,
    reconcile: (request) => provisioning.reconcile(request),
  });
  provision.watch(claims);
  // A claim whose PV is deleted (or never cached) is looked at again through its claimRef.
  provision.watch(volumes, (volume) => {
    const ref = volume.spec?.claimRef;
    return ref?.name ? [refKey({ namespace: ref.namespace ?? "", name: ref.name })] : [];
  });
  provision.watch(storageClasses, (storageClass) =>
    claims
      .list()
      .filter((claim) => claim.spec?.storageClassName === storageClass.metadata?.name)
      .map((claim) => objectKey(claim)),
  );
  provision.dependsOn(nodes);
  const deletion = new VolumeDeletionReconciler({
    volumes,
    volumeClient,
    directories,
    events: manager.events,
  });
  const remove = manager.controller({
    name: "local-path-delete",
    needsLeaderElection: false,
    reconcile: (request) => deletion.reconcile(request),
  });
  remove.watch(volumes);
  return { provision, delete: remove };
}

export interface LocalPathProvisionerOptions extends LocalPathProvisionerSettings {
  kubeConfig: KubeConfig;
  log: Logger;
  clock?: Clock;
}

export interface RunningLocalPathProvisioner {
  manager: Manager;
  done: Promise<ManagerExit>;
  stop(): Promise<void>;
}

/** The provisioner on a manager of its own, started (what main.ts and the tests run). */
export async function startLocalPathProvisioner(
  options: LocalPathProvisionerOptions,
): Promise<RunningLocalPathProvisioner> {
  const manager = new Manager({
    name: "local-path-provisioner",
    kubeConfig: options.kubeConfig,
    log: options.log,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  addLocalPathProvisioner(manager, options);
  await manager.start();
  return { manager, done: manager.done, stop: () => manager.stop() };
}
