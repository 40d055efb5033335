/**
 * The kinds virt-controller reads and writes, described for the runtime. kubevirt.io types and
 * names come from api/; core/v1 types from kubernetes-models (types only: nothing of it loads at
 * run time).
 */
import type { IPod } from "kubernetes-models/v1/Pod";
import {
  type KubeVirt as ApiKubeVirt,
  type VirtualMachine as ApiVirtualMachine,
  type VirtualMachineInstance as ApiVirtualMachineInstance,
  KubeVirtKind,
  VirtualMachineInstanceKind,
  VirtualMachineKind,
} from "../api/index.js";
import { defineKind, podKind, type WithObjectMeta } from "../runtime/index.js";

export type VirtualMachine = WithObjectMeta<ApiVirtualMachine>;
export type VirtualMachineInstance = WithObjectMeta<ApiVirtualMachineInstance>;
export type KubeVirt = WithObjectMeta<ApiKubeVirt>;
export type Pod = IPod;

export const vmKind = defineKind<VirtualMachine>(VirtualMachineKind);
export const vmiKind = defineKind<VirtualMachineInstance>(VirtualMachineInstanceKind);
export const kubeVirtKind = defineKind<KubeVirt>(KubeVirtKind);
export { podKind };
