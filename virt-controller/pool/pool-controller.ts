import { type StoredVirtualMachine, vmPoolKind } from "../../api/index.js";
import {
  byControllerUid,
  type Clock,
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Manager,
  systemClock,
  trackChildExpectations,
} from "../../runtime/index.js";
import { vmKind } from "../kinds.js";
import { PoolReconciler, VMS_BY_CONTROLLER_UID } from "./pool-reconciler.js";
import type { Random } from "./scale-in-order.js";

export interface PoolControllerOptions {
  workers?: number;
  clock?: Clock;
  /** The scale-in shuffle (KubeVirt's default order is random); tests fix it. */
  random?: Random;
}

/**
 * The VirtualMachinePool controller (pool-reconciler.ts decides): a pool is looked at when it or
 * one of its VMs changes (a VM's Ready condition is the pool's readyReplicas). The VM events also
 * tell the expectations that our creates and deletes reached the cache.
 */
export function addPoolController(manager: Manager, options: PoolControllerOptions = {}): Controller {
  const pools = manager.informer(vmPoolKind);
  const vms = manager.informer(vmKind, { indexers: { [VMS_BY_CONTROLLER_UID]: byControllerUid } });
  const clock = options.clock ?? systemClock;
  const expectations = new Expectations({ clock });
  const reconciler = new PoolReconciler({
    pools,
    vms,
    client: manager.client,
    events: manager.events,
    clock,
    expectations,
    ...(options.random ? { random: options.random } : {}),
  });
  const controller = manager.controller({
    name: "pool",
    workers: options.workers ?? 3,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(pools);
  controller.watch(vms, controllerOwnerKey<StoredVirtualMachine>(vmPoolKind));
  trackChildExpectations(vms, vmPoolKind, expectations);
  return controller;
}
