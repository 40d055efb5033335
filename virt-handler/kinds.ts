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
import { defineKind, type ObjectMeta } from "../runtime/index.js";

export type Pod = IPod;
export type Node = INode;

/**
 * api/'s kinds with the runtime's ObjectMeta: api/ allows a null creationTimestamp (as the CRD
 * schema does), which the runtime's KubeObject does not. Both describe the same JSON; objects of
 * these types can be passed to api/ functions unchanged.
 */
type WithRuntimeMeta<T> = Omit<T, "metadata"> & { metadata?: ObjectMeta };
export type Vmi = WithRuntimeMeta<VirtualMachineInstance>;
export type KubeVirt = WithRuntimeMeta<ApiKubeVirt>;

export const vmiKind = defineKind<Vmi>({
  group: VirtualMachineInstanceKind.group,
  version: VirtualMachineInstanceKind.version,
  kind: VirtualMachineInstanceKind.kind,
  plural: VirtualMachineInstanceKind.plural,
  namespaced: true,
});

export const kubeVirtKind = defineKind<KubeVirt>({
  group: KubeVirtKind.group,
  version: KubeVirtKind.version,
  kind: KubeVirtKind.kind,
  plural: KubeVirtKind.plural,
  namespaced: true,
});

export const podKind = defineKind<Pod>({
  group: "",
  version: "v1",
  kind: "Pod",
  plural: "pods",
  namespaced: true,
});

export const nodeKind = defineKind<Node>({
  group: "",
  version: "v1",
  kind: "Node",
  plural: "nodes",
  namespaced: false,
});
