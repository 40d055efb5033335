// The parts of the objects the end-to-end test and the density benchmark read, and their kinds for
// the runtime's client (polling through one keep-alive connection costs far less CPU than a kubectl
// process per look, which matters on two cores shared with booting guests).
import type { IPod } from "kubernetes-models/v1/Pod";
import { defineKind, type KubeObject } from "../../../runtime/index.js";

// The core kinds are declared once, in the runtime.
export { nodeKind, podKind } from "../../../runtime/index.js";

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface PhaseTransition {
  phase: string;
  phaseTransitionTimestamp: string;
}

export interface VirtualMachine extends KubeObject {
  spec?: { runStrategy?: string };
  status?: { printableStatus?: string; ready?: boolean; created?: boolean; conditions?: Condition[] };
}

export interface VirtualMachineInstance extends KubeObject {
  status?: {
    phase?: string;
    reason?: string;
    nodeName?: string;
    conditions?: Condition[];
    phaseTransitionTimestamps?: PhaseTransition[];
    interfaces?: {
      name?: string;
      mac?: string;
      ipAddress?: string;
      ipAddresses?: string[];
      podInterfaceName?: string;
      infoSource?: string;
    }[];
  };
}

export type Pod = IPod;

export const vmKind = defineKind<VirtualMachine>({
  group: "kubevirt.io",
  version: "v1",
  kind: "VirtualMachine",
  plural: "virtualmachines",
  namespaced: true,
});

export const vmiKind = defineKind<VirtualMachineInstance>({
  group: "kubevirt.io",
  version: "v1",
  kind: "VirtualMachineInstance",
  plural: "virtualmachineinstances",
  namespaced: true,
});

export interface KubeVirt extends KubeObject {
  status?: { phase?: string; conditions?: Condition[] };
}

export const kubevirtKind = defineKind<KubeVirt>({
  group: "kubevirt.io",
  version: "v1",
  kind: "KubeVirt",
  plural: "kubevirts",
  namespaced: true,
});

/** The label virt-controller puts on every launcher pod. */
export const LAUNCHER_SELECTOR = "kubevirt.io=virt-launcher";

export function conditionOf(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((condition) => condition.type === type);
}

/** When the VMI entered `phase` (epoch ms), from its phaseTransitionTimestamps. */
export function phaseEnteredAt(vmi: VirtualMachineInstance, phase: string): number | undefined {
  const entry = vmi.status?.phaseTransitionTimestamps?.find((transition) => transition.phase === phase);
  return entry ? Date.parse(entry.phaseTransitionTimestamp) : undefined;
}
