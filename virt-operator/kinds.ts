/**
 * The kubevirt.io kinds virt-operator reads and writes, described for the runtime: the KubeVirt
 * CR it installs from, and the VMs and VMIs that decide whether an uninstall may proceed.
 */
import {
  type KubeVirt as ApiKubeVirt,
  type VirtualMachine as ApiVirtualMachine,
  type VirtualMachineInstance as ApiVirtualMachineInstance,
  GROUP,
  KubeVirtKind,
  VERSION,
  VirtualMachineInstanceKind,
  VirtualMachineKind,
} from "../api/index.js";
import { defineKind, type ObjectMeta } from "../runtime/index.js";

/**
 * api/ types metadata as the CRD schema allows it (nullable timestamps); the caches hold what
 * the API server returns. Ours passes to every api/ function unchanged.
 */
type WithStoredMetadata<T> = Omit<T, "metadata"> & { metadata?: ObjectMeta };

export type KubeVirt = WithStoredMetadata<ApiKubeVirt>;
export type VirtualMachine = WithStoredMetadata<ApiVirtualMachine>;
export type VirtualMachineInstance = WithStoredMetadata<ApiVirtualMachineInstance>;

const kubevirtGroup = { group: GROUP, version: VERSION, namespaced: true } as const;

export const kubeVirtKind = defineKind<KubeVirt>({
  ...kubevirtGroup,
  kind: KubeVirtKind.kind,
  plural: KubeVirtKind.plural,
});

export const vmKind = defineKind<VirtualMachine>({
  ...kubevirtGroup,
  kind: VirtualMachineKind.kind,
  plural: VirtualMachineKind.plural,
});

export const vmiKind = defineKind<VirtualMachineInstance>({
  ...kubevirtGroup,
  kind: VirtualMachineInstanceKind.kind,
  plural: VirtualMachineInstanceKind.plural,
});
