import {
  type Controller,
  controllerOwnerKey,
  type Frozen,
  type Manager,
  type SharedInformer,
} from "../../../runtime/index.js";
import type { ControllerSettings } from "../controller-settings.js";
import {
  type Deployment,
  deploymentKind,
  type Pod,
  podKind,
  type ReplicaSet,
  replicaSetKind,
} from "../kinds.js";
import { controllerOf, ownershipIndexers } from "../ownership/controller-ref.js";
import { ownerOrAdopters } from "../ownership/owner-or-adopters.js";
import { DeploymentReconciler } from "./deployment-reconciler.js";

/**
 * The Deployment controller (kube's deployment controller): a ReplicaSet per pod template,
 * rolled from old to new as the strategy says, resized when the Deployment is, history trimmed,
 * and a status `kubectl rollout status` can follow.
 */
export function addDeploymentController(manager: Manager, settings: ControllerSettings): Controller {
  const deployments = manager.informer(deploymentKind);
  const replicaSets = manager.informer<ReplicaSet>(replicaSetKind, { indexers: ownershipIndexers });
  const pods = manager.informer<Pod>(podKind, { indexers: ownershipIndexers });
  const reconciler = new DeploymentReconciler({
    deployments,
    replicaSets,
    pods,
    deploymentClient: manager.client.resource(deploymentKind),
    replicaSetClient: manager.client.resource(replicaSetKind),
    events: manager.events,
    clock: settings.clock,
  });
  const controller = manager.controller({
    name: "deployment",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(deployments);
  controller.watch(replicaSets, ownerOrAdopters<Deployment, ReplicaSet>(deployments, deploymentKind));
  // Recreate waits for the old pods to be gone: their removal is the event that resumes it.
  controller.dependsOn(pods);
  const deploymentOf = controllerOwnerKey<ReplicaSet>(deploymentKind);
  pods.addEventHandler({
    onDelete: (pod) => {
      const replicaSet = ownerReplicaSet(replicaSets, pod);
      for (const key of replicaSet ? deploymentOf(replicaSet) : []) {
        if (deployments.get(key)?.spec?.strategy?.type === "Recreate") controller.enqueue(key);
      }
    },
  });
  return controller;
}

function ownerReplicaSet(
  replicaSets: SharedInformer<ReplicaSet>,
  pod: Frozen<Pod>,
): Frozen<ReplicaSet> | undefined {
  const owner = controllerOf(pod);
  if (owner?.kind !== replicaSetKind.kind) return undefined;
  const replicaSet = replicaSets.get({ namespace: pod.metadata?.namespace ?? "", name: owner.name });
  return replicaSet?.metadata?.uid === owner.uid ? replicaSet : undefined;
}
