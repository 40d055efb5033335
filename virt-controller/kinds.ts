/**
 * The kinds virt-controller reads and writes, described for the runtime. kubevirt.io types come
 * from api/; core/v1 types from kubernetes-models (types only: nothing of it loads at run time).
 */
import type { IPod } from "kubernetes-models/v1/Pod";
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
 * api/ types metadata as the CRD schema allows it (nullable timestamps); the runtime's caches
 * hold what the API server returns. The two metadata shapes are compatible one way: ours
 * passes to every api/ function unchanged.
 */
type WithStoredMetadata<T> = Omit<T, "metadata"> & { metadata?: ObjectMeta };

export type VirtualMachine = WithStoredMetadata<ApiVirtualMachine>;
export type VirtualMachineInstance = WithStoredMetadata<ApiVirtualMachineInstance>;
export type KubeVirt = WithStoredMetadata<ApiKubeVirt>;
export type Pod = IPod;

const kubevirtGroup = { group: GROUP, version: VERSION, namespaced: true } as const;

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

export const kubeVirtKind = defineKind<KubeVirt>({
  ...kubevirtGroup,
  kind: KubeVirtKind.kind,
  plural: KubeVirtKind.plural,
});

export const podKind = defineKind<Pod>({
  group: "",
  version: "v1",
  kind: "Pod",
  plural: "pods",
  namespaced: true,
});
