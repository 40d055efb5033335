/**
 * The kubevirt.io kinds as the runtime's clients and informers see them, declared once for
 * every component (each used to declare its own). The object types are api/'s schema-derived
 * types with the metadata the API server returns (see WithObjectMeta).
 */
import type { WithObjectMeta } from "../runtime/objects/kube-object.js";
import { defineKind } from "../runtime/objects/resource-kind.js";
import { type DataVolume, DataVolumeKind } from "./cdi/data-volume.js";
import {
  type VirtualMachineClusterInstancetype,
  VirtualMachineClusterInstancetypeKind,
  type VirtualMachineClusterPreference,
  VirtualMachineClusterPreferenceKind,
  type VirtualMachineInstancetype,
  VirtualMachineInstancetypeKind,
  type VirtualMachinePreference,
  VirtualMachinePreferenceKind,
} from "./instancetype/instancetype-kinds.js";
import { type KubeVirt, KubeVirtKind } from "./kubevirt/kubevirt.js";
import { type VirtualMachinePool, VirtualMachinePoolKind } from "./pool/virtual-machine-pool.js";
import {
  type VirtualMachineInstanceReplicaSet,
  VirtualMachineInstanceReplicaSetKind,
} from "./replicaset/virtual-machine-instance-replica-set.js";
import { type VirtualMachine, VirtualMachineKind } from "./vm/virtual-machine.js";
import { type VirtualMachineInstance, VirtualMachineInstanceKind } from "./vmi/virtual-machine-instance.js";

export type StoredVirtualMachine = WithObjectMeta<VirtualMachine>;
export type StoredVirtualMachineInstance = WithObjectMeta<VirtualMachineInstance>;
export type StoredVirtualMachineInstanceReplicaSet = WithObjectMeta<VirtualMachineInstanceReplicaSet>;
export type StoredKubeVirt = WithObjectMeta<KubeVirt>;
export type StoredDataVolume = WithObjectMeta<DataVolume>;
export type StoredVirtualMachinePool = WithObjectMeta<VirtualMachinePool>;

export const vmKind = defineKind<StoredVirtualMachine>(VirtualMachineKind);
export const vmiKind = defineKind<StoredVirtualMachineInstance>(VirtualMachineInstanceKind);
export const vmirsKind = defineKind<StoredVirtualMachineInstanceReplicaSet>(
  VirtualMachineInstanceReplicaSetKind,
);
export const kubeVirtKind = defineKind<StoredKubeVirt>(KubeVirtKind);
export const dataVolumeKind = defineKind<StoredDataVolume>(DataVolumeKind);
export const vmPoolKind = defineKind<StoredVirtualMachinePool>(VirtualMachinePoolKind);

export type StoredVirtualMachineInstancetype = WithObjectMeta<VirtualMachineInstancetype>;
export type StoredVirtualMachineClusterInstancetype = WithObjectMeta<VirtualMachineClusterInstancetype>;
export type StoredVirtualMachinePreference = WithObjectMeta<VirtualMachinePreference>;
export type StoredVirtualMachineClusterPreference = WithObjectMeta<VirtualMachineClusterPreference>;

export const instancetypeKind = defineKind<StoredVirtualMachineInstancetype>(VirtualMachineInstancetypeKind);
export const clusterInstancetypeKind = defineKind<StoredVirtualMachineClusterInstancetype>(
  VirtualMachineClusterInstancetypeKind,
);
export const preferenceKind = defineKind<StoredVirtualMachinePreference>(VirtualMachinePreferenceKind);
export const clusterPreferenceKind = defineKind<StoredVirtualMachineClusterPreference>(
  VirtualMachineClusterPreferenceKind,
);
