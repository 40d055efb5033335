import { LABELS } from "../../api/index.js";
import {
  byLabel,
  type Clock,
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Manager,
  OwnWrites,
  systemClock,
  trackChildExpectations,
} from "../../runtime/index.js";
import type { ClusterConfig } from "../config/cluster-config.js";
import { dependOnClusterConfig } from "../config/config-dependency.js";
import { type Pod, podKind, vmiKind } from "../kinds.js";
import { LAUNCHER } from "./launcher-pod.js";
import { LAUNCHER_PODS_BY_VMI_UID, VmiReconciler } from "./vmi-reconciler.js";

export interface VmiControllerOptions {
  config: ClusterConfig;
  /** The launcher pod's image (`--launcher-image`). */
  launcherImage: string;
  workers?: number;
  clock?: Clock;
}

/**
 * The VMI controller (vmi-reconciler.ts decides): a VMI is looked at when it, one of its
 * launcher pods or the KubeVirt CR changes. The pod events also tell the expectations that our
 * pod creates reached the cache.
 */
export function addVmiController(manager: Manager, options: VmiControllerOptions): Controller {
  const vmis = manager.informer(vmiKind);
  const pods = manager.informer(podKind, {
    labelSelector: LAUNCHER.selector,
    indexers: { [LAUNCHER_PODS_BY_VMI_UID]: byLabel<Pod>(LABELS.createdBy) },
  });
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
  });
  const controller = manager.controller({
    name: "vmi",
    // As many as KubeVirt's VMI controller threads (10): a burst of creations is reconciled side by side.
    workers: options.workers ?? 10,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(vmis);
  controller.watch(pods, controllerOwnerKey<Pod>(vmiKind));
  dependOnClusterConfig(controller, options.config, vmis);
  trackChildExpectations(pods, vmiKind, expectations);
  return controller;
}
