import { dataVolumeKind, LABELS } from "../../api/index.js";
import {
  byLabel,
  type Clock,
  type Controller,
  controllerOwnerKey,
  type Manager,
  persistentVolumeClaimKind,
  systemClock,
} from "../../runtime/index.js";
import { type Pod, podKind } from "../kinds.js";
import { BY_CLAIM, claimKeysOfPod } from "../vmi/claim-check.js";
import { VMI_PODS_SELECTOR } from "../vmi/vmi-pods.js";
import { LAUNCHER_PODS_BY_VMI_UID } from "../vmi/vmi-reconciler.js";
import { DataVolumeReconciler } from "./data-volume-reconciler.js";

export interface DataVolumeControllerOptions {
  /** The importer pods' image (`--importer-image`). */
  importerImage: string;
  workers?: number;
  clock?: Clock;
}

/**
 * The DataVolume controller (data-volume-reconciler.ts decides), CDI's part of kubevirt-ts: a
 * DataVolume is looked at when it or its claim changes, and every 2 s while its importer runs.
 */
export function addDataVolumeController(manager: Manager, options: DataVolumeControllerOptions): Controller {
  const dataVolumes = manager.informer(dataVolumeKind);
  const claims = manager.informer(persistentVolumeClaimKind);
  // The VMIs' pods, as the VMI controller watches them: a clone waits while a VM uses its source
  // (through its launcher pod, or a hotplug attachment pod).
  const launcherPods = manager.informer(podKind, {
    labelSelector: VMI_PODS_SELECTOR,
    indexers: { [LAUNCHER_PODS_BY_VMI_UID]: byLabel<Pod>(LABELS.createdBy), [BY_CLAIM]: claimKeysOfPod },
  });
  const reconciler = new DataVolumeReconciler({
    dataVolumes,
    claims,
    podsUsingClaim: (claimKey) => launcherPods.byIndex(BY_CLAIM, claimKey),
    client: manager.client,
    events: manager.events,
    clock: options.clock ?? systemClock,
    importerImage: options.importerImage,
  });
  const controller = manager.controller({
    name: "datavolume",
    workers: options.workers ?? 3,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(dataVolumes);
  controller.watch(claims, controllerOwnerKey(dataVolumeKind));
  return controller;
}
