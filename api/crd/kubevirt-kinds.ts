import type { TSchema } from "@sinclair/typebox";
import { DataVolumeKind } from "../cdi/data-volume.js";
import {
  VirtualMachineClusterInstancetypeKind,
  VirtualMachineClusterPreferenceKind,
  VirtualMachineInstancetypeKind,
  VirtualMachinePreferenceKind,
} from "../instancetype/instancetype-kinds.js";
import type { KindDefinition } from "../kind.js";
import { KubeVirtKind } from "../kubevirt/kubevirt.js";
import { VirtualMachineInstanceMigrationKind } from "../migration/virtual-machine-instance-migration.js";
import { VirtualMachinePoolKind } from "../pool/virtual-machine-pool.js";
import { VirtualMachineInstanceReplicaSetKind } from "../replicaset/virtual-machine-instance-replica-set.js";
import { VirtualMachineKind } from "../vm/virtual-machine.js";
import { VirtualMachineInstanceKind } from "../vmi/virtual-machine-instance.js";

/**
 * Every kubevirt.io/v1 kind kubevirt-ts serves, in the order their CRDs are listed, and CDI's
 * DataVolume (cdi.kubevirt.io/v1beta1), which kubevirt-ts serves itself (there is no separate CDI),
 * and the instancetype.kubevirt.io/v1beta1 instancetypes and preferences.
 */
export const KUBEVIRT_KINDS: readonly KindDefinition<TSchema, TSchema>[] = [
  KubeVirtKind,
  VirtualMachineKind,
  VirtualMachineInstanceKind,
  VirtualMachineInstanceMigrationKind,
  VirtualMachineInstanceReplicaSetKind,
  DataVolumeKind,
  VirtualMachineInstancetypeKind,
  VirtualMachineClusterInstancetypeKind,
  VirtualMachinePreferenceKind,
  VirtualMachineClusterPreferenceKind,
  // pool.kubevirt.io/v1beta1 (KubeVirt also serves v1alpha1; kubevirt-ts serves v1beta1 only).
  VirtualMachinePoolKind,
];
