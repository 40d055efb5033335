import type { Logger } from "pino";
import { LABELS } from "../../api/index.js";
import type { Connection } from "../../libvirt/index.js";
import { type Controller, type Manager, objectKey, systemClock } from "../../runtime/index.js";
import type { ClusterConfig } from "../config/cluster-config.js";
import type { DomainLifecycle } from "../domain/domain-lifecycle.js";
import type { VmiDomainFactory } from "../domain/vmi-domain-factory.js";
import type { GuestAgentReports } from "../guest-agent/agent-facts.js";
import { podKind, vmiKind } from "../kinds.js";
import type { KvmStatus } from "../node/kvm-detection.js";
import type { NodeInformers } from "../node-informers.js";
import { runPermission } from "./run-permission.js";
import { withClusterDefaults } from "./vmi-defaults.js";
import { VmiReconciler } from "./vmi-reconciler.js";

export interface VmiControllerOptions {
  readonly nodeName: string;
  /** The node's informers (node-informers.ts), shared with the sweep, the metrics and the console server. */
  readonly informers: NodeInformers;
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
  readonly lifecycle: DomainLifecycle;
  readonly kvm: KvmStatus;
  /** The KubeVirt CR's configuration: emulation, feature gates and defaults. */
  readonly config: ClusterConfig;
  /** VMIs reconciled at once. */
  readonly workers: number;
  readonly log: Logger;
  /** What the guest agents last reported, for status.guestOSInfo and the agent's addresses. */
  readonly guestAgent?: GuestAgentReports;
}

/** Launcher pods name their VMI by uid (kubevirt.io/created-by). */
const VMI_UID_INDEX = "uid";

/**
 * virt-handler's VMI controller: keyed by VMI, fed by VMI and launcher pod changes and by every
 * change of the cluster's configuration (libvirt's events come from follow-libvirt.ts).
 */
export function addVmiController(manager: Manager, options: VmiControllerOptions): Controller {
  const { nodeName, informers, config, kvm } = options;
  const { vmis, pods, kubevirts } = informers;
  vmis.addIndexer(VMI_UID_INDEX, (vmi) => [vmi.metadata?.uid ?? ""]);
  const reconciler = new VmiReconciler({
    nodeName,
    vmis,
    vmiClient: manager.client.resource(vmiKind),
    launcher: { pods, podClient: manager.client.resource(podKind) },
    connection: options.connection,
    factory: options.factory,
    lifecycle: options.lifecycle,
    permission: (vmi) => runPermission(kvm, config.current(), nodeName, vmi),
    withDefaults: (vmi) => withClusterDefaults(vmi, config.current().configuration),
    events: manager.events,
    clock: systemClock,
    ...(options.guestAgent ? { guestAgent: options.guestAgent } : {}),
  });
  const controller = manager.controller({
    name: "vmi",
    workers: options.workers,
    needsLeaderElection: false,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(vmis);
  controller.watch(pods, (pod) => {
    const uid = pod.metadata?.labels?.[LABELS.createdBy];
    return uid === undefined ? [] : vmis.byIndex(VMI_UID_INDEX, uid).map((vmi) => objectKey(vmi));
  });
  controller.dependsOn(kubevirts); // never decide on KubeVirt's defaults before the CR was read
  config.onChange((current) => {
    options.log.info({ useEmulation: current.useEmulation }, "KubeVirt configuration changed");
    for (const key of vmis.keys()) controller.enqueue(key);
  });
  return controller;
}
