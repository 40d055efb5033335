import { type Controller, type Frozen, type Manager, objectKey } from "../../../runtime/index.js";
import type { ControllerSettings } from "../controller-settings.js";
import {
  nodeKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  podKind,
  storageClassKind,
} from "../kinds.js";
import { ClaimReconciler } from "./claim-reconciler.js";
import { ClaimProtectionReconciler, VolumeProtectionReconciler } from "./protection-reconcilers.js";
import { BIND_COMPLETED, hasAnnotation } from "./storage-annotations.js";
import type { BindingClients } from "./volume-binding.js";
import { VolumeReconciler } from "./volume-reconciler.js";

/**
 * kube-controller-manager's persistentvolume-binder (its claim and volume loops, as two
 * controllers over one cache) and its pvc-protection and pv-protection controllers. One worker
 * each, as kube runs them: the claim loop never picks the same volume for two claims at once,
 * and the resourceVersion on every write stops a pick the cache has not caught up with.
 */

const CLAIM_REF_INDEX = "claimRef";

const claimRefKey = (volume: Frozen<PersistentVolume>): string[] => {
  const ref = volume.spec?.claimRef;
  return ref?.name ? [`${ref.namespace ?? ""}/${ref.name}`] : [];
};

/** The keys of the claims a pod's persistentVolumeClaim volumes name. */
const claimKeysOf = (pod: Frozen<Pod>): string[] =>
  (pod.spec?.volumes ?? []).flatMap((volume) => {
    const claimName = volume.persistentVolumeClaim?.claimName;
    return claimName ? [`${pod.metadata?.namespace ?? ""}/${claimName}`] : [];
  });

function bindingClients(manager: Manager, settings: ControllerSettings): BindingClients {
  return {
    volumes: manager.client.resource(persistentVolumeKind),
    claims: manager.client.resource(persistentVolumeClaimKind),
    clock: settings.clock,
  };
}

/** The claim loop: unbound claims wake on any volume or class change (a new volume may fit them). */
export function addClaimBinderController(manager: Manager, settings: ControllerSettings): Controller {
  const claims = manager.informer<PersistentVolumeClaim>(persistentVolumeClaimKind);
  const volumes = manager.informer<PersistentVolume>(persistentVolumeKind);
  const classes = manager.informer(storageClassKind);
  const nodes = manager.informer(nodeKind);
  const pods = manager.informer<Pod>(podKind);
  const clients = bindingClients(manager, settings);
  const reconciler = new ClaimReconciler({
    claims,
    volumes,
    classes,
    nodes,
    pods,
    clients,
    claimsClient: clients.claims,
    events: manager.events,
  });
  const controller = manager.controller({
    name: "persistentvolume-claims",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  const unboundClaims = () =>
    claims
      .list()
      .filter((claim) => !hasAnnotation(claim, BIND_COMPLETED))
      .map((claim) => objectKey(claim));
  controller.watch(claims);
  controller.watch(volumes, (volume) => [...new Set([...claimRefKey(volume), ...unboundClaims()])]);
  controller.watch(classes, () => unboundClaims());
  // An unscheduled pod naming a waiting claim changes what the claim's WaitForPodScheduled says.
  controller.watch(pods, (pod) => (pod.spec?.nodeName ? [] : claimKeysOf(pod)));
  controller.dependsOn(nodes);
  return controller;
}

/** The volume loop: a volume wakes when the claim it names (or that names it) changes or goes. */
export function addVolumeBinderController(manager: Manager, settings: ControllerSettings): Controller {
  const claims = manager.informer<PersistentVolumeClaim>(persistentVolumeClaimKind);
  const volumes = manager.informer<PersistentVolume>(persistentVolumeKind);
  volumes.addIndexer(CLAIM_REF_INDEX, claimRefKey);
  const reconciler = new VolumeReconciler({
    volumes,
    claims,
    clients: bindingClients(manager, settings),
    events: manager.events,
  });
  const controller = manager.controller({
    name: "persistentvolume-volumes",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(volumes);
  controller.watch(claims, (claim) => {
    const named = claim.spec?.volumeName ? [claim.spec.volumeName] : [];
    const referring = volumes.byIndex(CLAIM_REF_INDEX, objectKey(claim)).map((volume) => objectKey(volume));
    return [...new Set([...named, ...referring])];
  });
  return controller;
}

/** pvc-protection: a claim wakes when a pod that names it changes or goes. */
export function addClaimProtectionController(manager: Manager, settings: ControllerSettings): Controller {
  const claims = manager.informer<PersistentVolumeClaim>(persistentVolumeClaimKind);
  const pods = manager.informer<Pod>(podKind);
  const reconciler = new ClaimProtectionReconciler({
    claims,
    pods,
    claimsClient: manager.client.resource(persistentVolumeClaimKind),
    podsClient: manager.client.resource(podKind),
  });
  const controller = manager.controller({
    name: "pvc-protection",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(claims);
  controller.watch(pods, claimKeysOf);
  return controller;
}

/** pv-protection. */
export function addVolumeProtectionController(manager: Manager, settings: ControllerSettings): Controller {
  const volumes = manager.informer<PersistentVolume>(persistentVolumeKind);
  const reconciler = new VolumeProtectionReconciler({
    volumes,
    volumesClient: manager.client.resource(persistentVolumeKind),
  });
  const controller = manager.controller({
    name: "pv-protection",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(volumes);
  return controller;
}
