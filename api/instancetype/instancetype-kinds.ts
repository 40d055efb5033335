import { type Static, Type } from "@sinclair/typebox";
import { defineKind, type PrinterColumn } from "../kind.js";
import { VirtualMachineInstancetypeSpecSchema } from "./instancetype-spec.js";
import { VirtualMachinePreferenceSpecSchema } from "./preference-spec.js";

/**
 * The four kinds of `instancetype.kubevirt.io/v1beta1`, named and scoped as KubeVirt's CRDs
 * (`crds.go`): the namespaced kinds are in the `all` category, the cluster kinds in none. They
 * have no status (KubeVirt's have none either).
 */
export const INSTANCETYPE_GROUP = "instancetype.kubevirt.io";
export const INSTANCETYPE_VERSION = "v1beta1";
export const INSTANCETYPE_API_VERSION = `${INSTANCETYPE_GROUP}/${INSTANCETYPE_VERSION}`;

const NoStatusSchema = Type.Object({});
const AGE: readonly PrinterColumn[] = [
  { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
];

export const VirtualMachineInstancetypeKind = defineKind({
  group: INSTANCETYPE_GROUP,
  version: INSTANCETYPE_VERSION,
  kind: "VirtualMachineInstancetype",
  plural: "virtualmachineinstancetypes",
  shortNames: ["vminstancetype", "vminstancetypes", "vmf", "vmfs"],
  categories: ["all"],
  spec: VirtualMachineInstancetypeSpecSchema,
  status: NoStatusSchema,
  description:
    "VirtualMachineInstancetype resource contains quantitative and resource related VirtualMachine configuration that can be used by multiple VirtualMachine resources.",
  printerColumns: AGE,
  subresources: {},
});
export type VirtualMachineInstancetype = Static<typeof VirtualMachineInstancetypeKind.schema>;

export const VirtualMachineClusterInstancetypeKind = defineKind({
  group: INSTANCETYPE_GROUP,
  version: INSTANCETYPE_VERSION,
  kind: "VirtualMachineClusterInstancetype",
  plural: "virtualmachineclusterinstancetypes",
  shortNames: ["vmclusterinstancetype", "vmclusterinstancetypes", "vmcf", "vmcfs"],
  categories: [],
  namespaced: false,
  spec: VirtualMachineInstancetypeSpecSchema,
  status: NoStatusSchema,
  description:
    "VirtualMachineClusterInstancetype is a cluster scoped version of VirtualMachineInstancetype resource.",
  printerColumns: AGE,
  subresources: {},
});
export type VirtualMachineClusterInstancetype = Static<typeof VirtualMachineClusterInstancetypeKind.schema>;

export const VirtualMachinePreferenceKind = defineKind({
  group: INSTANCETYPE_GROUP,
  version: INSTANCETYPE_VERSION,
  kind: "VirtualMachinePreference",
  plural: "virtualmachinepreferences",
  shortNames: ["vmpref", "vmprefs", "vmp", "vmps"],
  categories: ["all"],
  spec: VirtualMachinePreferenceSpecSchema,
  status: NoStatusSchema,
  description:
    "VirtualMachinePreference resource contains optional preferences related to the VirtualMachine.",
  printerColumns: AGE,
  subresources: {},
});
export type VirtualMachinePreference = Static<typeof VirtualMachinePreferenceKind.schema>;

export const VirtualMachineClusterPreferenceKind = defineKind({
  group: INSTANCETYPE_GROUP,
  version: INSTANCETYPE_VERSION,
  kind: "VirtualMachineClusterPreference",
  plural: "virtualmachineclusterpreferences",
  shortNames: ["vmcp", "vmcps"],
  categories: [],
  namespaced: false,
  spec: VirtualMachinePreferenceSpecSchema,
  status: NoStatusSchema,
  description:
    "VirtualMachineClusterPreference is a cluster scoped version of the VirtualMachinePreference resource.",
  printerColumns: AGE,
  subresources: {},
});
export type VirtualMachineClusterPreference = Static<typeof VirtualMachineClusterPreferenceKind.schema>;

/** Either scope of instancetype or of preference: the spec is the same. */
export type AnyInstancetype = VirtualMachineInstancetype | VirtualMachineClusterInstancetype;
export type AnyPreference = VirtualMachinePreference | VirtualMachineClusterPreference;

/** The kind a VM's matcher names, by what it references and the matcher's scope. */
export const REFERENCE_KINDS = {
  instancetype: {
    namespaced: VirtualMachineInstancetypeKind,
    cluster: VirtualMachineClusterInstancetypeKind,
  },
  preference: { namespaced: VirtualMachinePreferenceKind, cluster: VirtualMachineClusterPreferenceKind },
} as const;
