/**
 * How a VM's `spec.instancetype` / `spec.preference` name their kind, as KubeVirt matches them
 * (`pkg/instancetype/find/spec.go`): case-insensitively, the singular or plural resource name; an
 * empty kind means the cluster-wide kind (virt-api's defaults write `VirtualMachineClusterInstancetype`).
 */

export type ReferenceScope = "namespaced" | "cluster";

const INSTANCETYPE_KIND_NAMES: Record<string, ReferenceScope> = {
  "": "cluster",
  virtualmachineinstancetype: "namespaced",
  virtualmachineinstancetypes: "namespaced",
  virtualmachineclusterinstancetype: "cluster",
  virtualmachineclusterinstancetypes: "cluster",
};

const PREFERENCE_KIND_NAMES: Record<string, ReferenceScope> = {
  "": "cluster",
  virtualmachinepreference: "namespaced",
  virtualmachinepreferences: "namespaced",
  virtualmachineclusterpreference: "cluster",
  virtualmachineclusterpreferences: "cluster",
};

/** The scope an instancetype matcher's kind names, undefined for a kind KubeVirt does not know. */
export function instancetypeScopeOf(kind: string | undefined): ReferenceScope | undefined {
  return INSTANCETYPE_KIND_NAMES[(kind ?? "").toLowerCase()];
}

/** The scope a preference matcher's kind names, undefined for a kind KubeVirt does not know. */
export function preferenceScopeOf(kind: string | undefined): ReferenceScope | undefined {
  return PREFERENCE_KIND_NAMES[(kind ?? "").toLowerCase()];
}

/** KubeVirt's messages for a kind it does not know (`got unexpected kind in ...Matcher`). */
export function unexpectedKindMessage(
  matcher: "InstancetypeMatcher" | "PreferenceMatcher",
  kind: string,
): string {
  return `got unexpected kind in ${matcher}: ${kind}`;
}

/** The singular resource names KubeVirt records in `status.instancetypeRef.kind` / `preferenceRef.kind`. */
export const REFERENCE_KIND_NAMES = {
  instancetype: { namespaced: "virtualmachineinstancetype", cluster: "virtualmachineclusterinstancetype" },
  preference: { namespaced: "virtualmachinepreference", cluster: "virtualmachineclusterpreference" },
} as const;

/** The annotations KubeVirt puts on the VMI to say what it was expanded from. */
export const EXPANSION_ANNOTATIONS = {
  instancetype: {
    namespaced: "kubevirt.io/instancetype-name",
    cluster: "kubevirt.io/cluster-instancetype-name",
  },
  preference: { namespaced: "kubevirt.io/preference-name", cluster: "kubevirt.io/cluster-preference-name" },
} as const;
