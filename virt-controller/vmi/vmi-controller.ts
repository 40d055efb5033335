import { claimVolumesOf, dataVolumeKind, LABELS } from "../../api/index.js";
import {
  byControllerUid,
  byLabel,
  type Clock,
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Frozen,
  type Manager,
  OwnWrites,
  systemClock,
  trackChildExpectations,
} from "../../runtime/index.js";
import type { ClusterConfig } from "../config/cluster-config.js";
import { dependOnClusterConfig } from "../config/config-dependency.js";
import {
  type Pod,
  persistentVolumeClaimKind,
  podKind,
  type VirtualMachineInstance,
  vmiKind,
} from "../kinds.js";
import { BY_CLAIM, ClaimReservations, claimKeysOfPod } from "./claim-check.js";
import { PODS_BY_OWNER_UID, VMI_PODS_SELECTOR } from "./vmi-pods.js";
import { LAUNCHER_PODS_BY_VMI_UID, VmiReconciler } from "./vmi-reconciler.js";

export interface VmiControllerOptions {
  config: ClusterConfig;
  /** The launcher pod's image (`--launcher-image`). */
  launcherImage: string;
  workers?: number;
  clock?: Clock;
}

const VMIS_BY_CLAIM = "claim";

function vmiClaimKeys(vmi: Frozen<VirtualMachineInstance>): string[] {
  const namespace = vmi.metadata?.namespace ?? "";
  return claimVolumesOf(vmi.spec ?? {}).map(({ claimName }) => `${namespace}/${claimName}`);
}

function objectKey(object: { metadata?: { namespace?: string; name?: string } }): string {
  return `${object.metadata?.namespace ?? ""}/${object.metadata?.name ?? ""}`;
}

function keysOf(vmis: readonly Frozen<VirtualMachineInstance>[]): string[] {
  return vmis.map(objectKey);
}

/**
 * The VMI controller (vmi-reconciler.ts decides): a VMI is looked at when it, one of its
 * launcher or attachment pods (both owned by it), one of its claims or DataVolumes, or the
 * KubeVirt CR changes. The pod events also tell the expectations that our pod creates reached the cache.
 */
export function addVmiController(manager: Manager, options: VmiControllerOptions): Controller {
  const vmis = manager.informer(vmiKind, { indexers: { [VMIS_BY_CLAIM]: vmiClaimKeys } });
  const pods = manager.informer(podKind, {
    labelSelector: VMI_PODS_SELECTOR,
    indexers: {
      [LAUNCHER_PODS_BY_VMI_UID]: byLabel<Pod>(LABELS.createdBy),
      [PODS_BY_OWNER_UID]: byControllerUid<Pod>,
      [BY_CLAIM]: claimKeysOfPod,
    },
  });
  const claims = manager.informer(persistentVolumeClaimKind);
  const dataVolumes = manager.informer(dataVolumeKind);
  const vmisByClaim = (claimKey: string) => vmis.byIndex(VMIS_BY_CLAIM, claimKey);
  const clock = options.clock ?? systemClock;
  const expectations = new Expectations({ clock });
  const reconciler = new VmiReconciler({
    vmis,
    pods,
    client: manager.client,
    events: manager.events,
    config: options.config,
    launcherImage: options.launcherImage,
    clock,
    expectations,
    ownWrites: new OwnWrites(),
    claims,
    claimReservations: new ClaimReservations(),
    dataVolumes,
  });
  const controller = manager.controller({
    name: "vmi",
    // As many as KubeVirt's VMI controller threads (10): a burst of creations is reconciled side by side.
    workers: options.workers ?? 10,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(vmis);
  controller.watch(pods, controllerOwnerKey<Pod>(vmiKind));
  // A claim that appears, or a pod that lets go of one, lets the VMIs waiting on it go on.
  controller.watch(claims, (claim) => keysOf(vmisByClaim(objectKey(claim))));
  // A DataVolume's claim has its name: the VMIs waiting for it to be filled go on once it is.
  controller.watch(dataVolumes, (dv) => keysOf(vmisByClaim(objectKey(dv))));
  controller.watch(pods, (pod) => claimKeysOfPod(pod).flatMap((key) => keysOf(vmisByClaim(key))));
  dependOnClusterConfig(controller, options.config, vmis);
  trackChildExpectations(pods, vmiKind, expectations);
  return controller;
}
