/**
 * The kubevirt.io kinds virt-operator reads and writes, described for the runtime: the KubeVirt
 * CR it installs from, and the VMs and VMIs that decide whether an uninstall may proceed.
 */
import {
  type KubeVirt as ApiKubeVirt,
  type VirtualMachine as ApiVirtualMachine,
  type VirtualMachineInstance as ApiVirtualMachineInstance,
  KubeVirtKind,
  VirtualMachineInstanceKind,
  VirtualMachineKind,
} from "../api/index.js";
import { defineKind, type WithObjectMeta } from "../runtime/index.js";

export type KubeVirt = WithObjectMeta<ApiKubeVirt>;
export type VirtualMachine = WithObjectMeta<ApiVirtualMachine>;
export type VirtualMachineInstance = WithObjectMeta<ApiVirtualMachineInstance>;

export const kubeVirtKind = defineKind<KubeVirt>(KubeVirtKind);
export const vmKind = defineKind<VirtualMachine>(VirtualMachineKind);
export const vmiKind = defineKind<VirtualMachineInstance>(VirtualMachineInstanceKind);
