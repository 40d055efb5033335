import {
  claimVolumesOf,
  clusterInstancetypeKind,
  clusterPreferenceKind,
  controllerRevisionKind,
  dataVolumeKind,
  instancetypeKind,
  preferenceKind,
  type StoredDataVolume,
} from "../../api/index.js";
import {
  type Clock,
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Frozen,
  type Manager,
  OwnWrites,
  type SharedInformer,
  systemClock,
  trackChildExpectations,
} from "../../runtime/index.js";
import type { ClusterConfig } from "../config/cluster-config.js";
import { dependOnClusterConfig } from "../config/config-dependency.js";
import {
  persistentVolumeClaimKind,
  type VirtualMachine,
  type VirtualMachineInstance,
  vmiKind,
  vmKind,
} from "../kinds.js";
import { InstancetypeReferences } from "./instancetype-references.js";
import { InstancetypeSources } from "./instancetype-sources.js";
import { KUBEVIRT_START_BACKOFF, type StartBackoffOptions } from "./start-failure.js";
import { VmReconciler } from "./vm-reconciler.js";

export interface VmControllerOptions {
  config: ClusterConfig;
  workers?: number;
  /** Crash-loop back-off (default KubeVirt's: 10 s × failures², at most 5 min). */
  startBackoff?: StartBackoffOptions;
  clock?: Clock;
}

function usesClaim(vm: Frozen<VirtualMachine>, claim: { metadata?: { name?: string } }): boolean {
  return claimVolumesOf(vm.spec?.template?.spec ?? {}).some(
    ({ claimName }) => claimName === claim.metadata?.name,
  );
}

/** VMs whose matcher names `object` and that have no revision of it yet: a missing object appearing lets them start. */
function waitingFor(
  vms: SharedInformer<VirtualMachine>,
  reference: "instancetype" | "preference",
  object: { metadata?: { name?: string; namespace?: string } },
): string[] {
  return vms
    .list()
    .filter((vm) => {
      const matcher = vm.spec[reference];
      const ref = reference === "instancetype" ? vm.status?.instancetypeRef : vm.status?.preferenceRef;
      if (matcher?.name !== object.metadata?.name || ref?.controllerRevisionRef?.name) return false;
      return object.metadata?.namespace === undefined || object.metadata.namespace === vm.metadata?.namespace;
    })
    .map((vm) => `${vm.metadata?.namespace ?? ""}/${vm.metadata?.name ?? ""}`);
}

/**
 * The VM controller (vm-reconciler.ts decides): a VM is looked at when it, its VMI or the
 * KubeVirt CR changes. The VMI events also tell the expectations that our creates and deletes
 * reached the cache.
 */
export function addVmController(manager: Manager, options: VmControllerOptions): Controller {
  const vms = manager.informer(vmKind);
  const vmis = manager.informer(vmiKind);
  const claims = manager.informer(persistentVolumeClaimKind);
  const dataVolumes = manager.informer(dataVolumeKind);
  const instancetypeInformers = {
    instancetypes: manager.informer(instancetypeKind),
    clusterInstancetypes: manager.informer(clusterInstancetypeKind),
    preferences: manager.informer(preferenceKind),
    clusterPreferences: manager.informer(clusterPreferenceKind),
    revisions: manager.informer(controllerRevisionKind),
  };
  const clock = options.clock ?? systemClock;
  const expectations = new Expectations({ clock });
  const reconciler = new VmReconciler({
    vms,
    vmis,
    client: manager.client,
    events: manager.events,
    config: options.config,
    clock,
    backoff: options.startBackoff ?? KUBEVIRT_START_BACKOFF,
    expectations,
    ownWrites: new OwnWrites(),
    claims,
    dataVolumes,
    instancetypes: new InstancetypeReferences(new InstancetypeSources(instancetypeInformers, manager.client)),
  });
  const controller = manager.controller({
    name: "vm",
    // As many as KubeVirt's VMI controller threads (10): a burst of creations is reconciled side by side.
    workers: options.workers ?? 10,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(vms);
  controller.watch(vmis, controllerOwnerKey<VirtualMachineInstance>(vmKind));
  // A DataVolume's phase decides whether its VM may start (and what it shows).
  controller.watch(dataVolumes, controllerOwnerKey<StoredDataVolume>(vmKind));
  controller.watch(dataVolumes, (dv) =>
    vms
      .list()
      .filter((vm) => vm.metadata?.namespace === dv.metadata?.namespace && usesClaim(vm, dv))
      .map((vm) => `${vm.metadata?.namespace ?? ""}/${vm.metadata?.name ?? ""}`),
  );
  // A claim binding (or appearing) changes what the VMs on it show.
  controller.watch(claims, (claim) =>
    vms
      .list()
      .filter((vm) => vm.metadata?.namespace === claim.metadata?.namespace && usesClaim(vm, claim))
      .map((vm) => `${vm.metadata?.namespace ?? ""}/${vm.metadata?.name ?? ""}`),
  );
  // A VM waiting for its instancetype or preference starts once it exists.
  controller.watch(instancetypeInformers.instancetypes, (it) => waitingFor(vms, "instancetype", it));
  controller.watch(instancetypeInformers.clusterInstancetypes, (it) => waitingFor(vms, "instancetype", it));
  controller.watch(instancetypeInformers.preferences, (pref) => waitingFor(vms, "preference", pref));
  controller.watch(instancetypeInformers.clusterPreferences, (pref) => waitingFor(vms, "preference", pref));
  dependOnClusterConfig(controller, options.config, vms);
  trackChildExpectations(vmis, vmKind, expectations);
  return controller;
}
