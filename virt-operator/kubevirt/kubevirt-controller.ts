import { type Clock, type Controller, type Manager, objectKey, systemClock } from "../../runtime/index.js";
import { secretKind } from "../../runtime/tls/secret-tls-source.js";
import { CertificateManager } from "../certificates/certificate-manager.js";
import { CertificateSecrets } from "../certificates/certificate-secrets.js";
import { kubeVirtKind } from "../kinds.js";
import type { OperatorIdentity, RenderStrategy } from "../strategy/install-strategy.js";
import { electActiveKubeVirt } from "./active-kubevirt.js";
import { Installer } from "./installer.js";
import { KubeVirtReconciler } from "./kubevirt-reconciler.js";
import { KubeVirtWrites } from "./kubevirt-writes.js";
import { ManagedKindTable } from "./managed-kinds.js";
import { ManagedObjects } from "./managed-objects.js";
import { Uninstaller } from "./uninstaller.js";
import { WorkloadInventory } from "./workload-inventory.js";

export interface KubeVirtControllerOptions {
  /** Where the operator runs and which version it installs by default. */
  identity: OperatorIdentity;
  /** What is installed for a KubeVirt CR (strategy/render-strategy.ts; tests pass their own). */
  renderStrategy: RenderStrategy;
  /** The reconciler's time: status timestamps, certificate validity and renewal (default the system's). */
  clock?: Clock;
  /** The kinds a strategy may contain, each watched (default MANAGED_KINDS); Secret among them. */
  kinds?: ManagedKindTable;
}

/**
 * virt-operator's controller: KubeVirt CRs in, installed (and repaired, updated, removed)
 * objects out. Any change to a KubeVirt looks at every KubeVirt (which one is active may have
 * changed); any change to an installed object, a VM or a VMI looks at the active one.
 */
export function addKubeVirtController(manager: Manager, options: KubeVirtControllerOptions): Controller {
  const { identity } = options;
  const clock = options.clock ?? systemClock;
  const kubevirts = manager.informer(kubeVirtKind);
  const kinds = options.kinds ?? new ManagedKindTable();
  const objects = new ManagedObjects(manager, kinds);
  const managedSecrets = kinds.of({ apiVersion: "v1", kind: "Secret" });
  if (!managedSecrets)
    throw new Error("the managed kind table has no Secret: certificates could not be kept");
  const certificates = new CertificateManager(
    new CertificateSecrets(objects.informerOf(managedSecrets), manager.client.resource(secretKind)),
    clock,
  );
  const activeKeys = (): string[] => {
    const { active } = electActiveKubeVirt(kubevirts.list(), identity.namespace);
    return active ? [objectKey(active)] : [];
  };
  const workloads = new WorkloadInventory(manager, () => {
    for (const key of activeKeys()) controller.enqueue(key);
  });
  const reconciler = new KubeVirtReconciler({
    identity,
    renderStrategy: options.renderStrategy,
    kubevirts,
    kinds,
    certificates,
    installer: new Installer(objects, manager.client, manager.events),
    uninstaller: new Uninstaller(objects, workloads, manager.events),
    writes: new KubeVirtWrites(manager.client.resource(kubeVirtKind)),
    events: manager.events,
    clock,
  });
  const controller = manager.controller({
    name: "kubevirt",
    // One install at a time: the strategy's objects are cluster-wide and shared by every CR.
    workers: 1,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(kubevirts, () => kubevirts.keys());
  for (const informer of objects.informers()) controller.watch(informer, activeKeys);
  return controller;
}
