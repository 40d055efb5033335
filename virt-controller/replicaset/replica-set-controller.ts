import { type StoredVirtualMachineInstanceReplicaSet, vmirsKind } from "../../api/index.js";
import {
  type Clock,
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Frozen,
  type Manager,
  OwnWrites,
  objectKey,
  type SharedInformer,
  systemClock,
  trackChildExpectations,
} from "../../runtime/index.js";
import { type VirtualMachineInstance, vmiKind } from "../kinds.js";
import { KUBEVIRT_BURST_REPLICAS, ReplicaSetReconciler } from "./replica-set-reconciler.js";
import { selectorOf } from "./replica-set-selector.js";
import { vmiIndexers } from "./vmi-indexes.js";

export interface ReplicaSetControllerOptions {
  /** Default 3, KubeVirt's controller threads. */
  workers?: number;
  /** Creates or deletes per reconcile; default KubeVirt's 250. */
  burstReplicas?: number;
  clock?: Clock;
}

type ReplicaSet = StoredVirtualMachineInstanceReplicaSet;

/**
 * A VMI wakes its controlling replica set; an orphan wakes every replica set of its namespace
 * whose selector matches it, any of which may adopt it (KubeVirt's getMatchingControllers).
 */
function replicaSetsOf(
  replicaSets: SharedInformer<ReplicaSet>,
): (vmi: Frozen<VirtualMachineInstance>) => readonly string[] {
  const owner = controllerOwnerKey<VirtualMachineInstance>(vmirsKind);
  return (vmi) => {
    if (vmi.metadata?.ownerReferences?.some((reference) => reference.controller === true)) return owner(vmi);
    return replicaSets
      .list({ namespace: vmi.metadata?.namespace ?? "" })
      .filter((replicaSet) => {
        const selector = selectorOf(replicaSet);
        return selector.kind === "usable" && selector.matches(vmi.metadata?.labels);
      })
      .map(objectKey);
  };
}

/**
 * The VirtualMachineInstanceReplicaSet controller (replica-set-reconciler.ts decides): a replica
 * set is looked at when it or one of its VMIs (or a VMI it could adopt) changes. A VMI update
 * wakes the replica sets of both its old and its new version, so that one that lost a VMI
 * (relabelled, or its owner reference removed) counts again.
 */
export function addReplicaSetController(
  manager: Manager,
  options: ReplicaSetControllerOptions = {},
): Controller {
  const replicaSets = manager.informer(vmirsKind);
  const vmis = manager.informer(vmiKind, { indexers: vmiIndexers });
  const expectations = new Expectations({ clock: options.clock ?? systemClock });
  const reconciler = new ReplicaSetReconciler({
    replicaSets,
    vmis,
    replicaSetClient: manager.client.resource(vmirsKind),
    vmiClient: manager.client.resource(vmiKind),
    events: manager.events,
    expectations,
    ownWrites: new OwnWrites(),
    clock: options.clock ?? systemClock,
    burstReplicas: options.burstReplicas ?? KUBEVIRT_BURST_REPLICAS,
  });
  const controller = manager.controller({
    name: "replicaset",
    workers: options.workers ?? 3,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(replicaSets);
  // The VMI cache must be full before the first count: the controller waits for it to sync.
  controller.dependsOn(vmis);
  const keysOf = replicaSetsOf(replicaSets);
  const enqueue = (keys: readonly string[]) => {
    for (const key of keys) controller.enqueue(key);
  };
  vmis.addEventHandler({
    onAdd: (vmi) => enqueue(keysOf(vmi)),
    onUpdate: (previous, current) => enqueue([...new Set([...keysOf(previous), ...keysOf(current)])]),
    onDelete: (vmi) => enqueue(keysOf(vmi)),
  });
  trackChildExpectations(vmis, vmirsKind, expectations);
  return controller;
}
