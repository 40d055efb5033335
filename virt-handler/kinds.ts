// The kinds virt-handler reads and writes, described for the runtime's clients and informers.
// Object types come from api/ (kubevirt.io) and kubernetes-models (core/v1, types only).
import type { INode } from "kubernetes-models/v1/Node";
import type { IPod } from "kubernetes-models/v1/Pod";
import {
  type KubeVirt as ApiKubeVirt,
  KubeVirtKind,
  type VirtualMachineInstance,
  VirtualMachineInstanceKind,
} from "../api/index.js";
import { defineKind, nodeKind, podKind, type WithObjectMeta } from "../runtime/index.js";

export type Pod = IPod;
export type Node = INode;
export type Vmi = WithObjectMeta<VirtualMachineInstance>;
export type KubeVirt = WithObjectMeta<ApiKubeVirt>;

export const vmiKind = defineKind<Vmi>(VirtualMachineInstanceKind);
export const kubeVirtKind = defineKind<KubeVirt>(KubeVirtKind);
export { nodeKind, podKind };
