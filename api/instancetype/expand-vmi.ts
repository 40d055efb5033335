import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { applyInstancetype } from "./expand-instancetype.js";
import { applyPreference } from "./expand-preference.js";
import type { VirtualMachineInstancetypeSpec } from "./instancetype-spec.js";
import { EXPANSION_ANNOTATIONS, type ReferenceScope } from "./matcher-kinds.js";
import type { VirtualMachinePreferenceSpec } from "./preference-spec.js";

/** A resolved reference: the spec (from the VM's ControllerRevision, or the live object) and its name. */
export interface ResolvedReference<Spec> {
  readonly name: string;
  readonly scope: ReferenceScope;
  readonly spec: Spec;
}

export interface ExpansionInput {
  /** Where the spec sits in the object the conflicts are reported against. */
  readonly base: string;
  readonly instancetype?: ResolvedReference<VirtualMachineInstancetypeSpec>;
  readonly preference?: ResolvedReference<VirtualMachinePreferenceSpec>;
  readonly spec: VirtualMachineInstanceSpec;
  readonly annotations: Readonly<Record<string, string>>;
}

export type Expansion =
  | { readonly conflicts: readonly string[] }
  | {
      readonly conflicts: readonly [];
      spec: VirtualMachineInstanceSpec;
      annotations: Record<string, string>;
    };

/**
 * A VM template's spec with its instancetype and preference applied, as KubeVirt's VM controller
 * builds the VMI: the instancetype first (a field it sets that the template sets too is a
 * conflict, and nothing is returned), then the preference, which only fills what is still empty,
 * then the annotations naming both. Pure: the inputs are not modified.
 */
export function expandSpec(input: ExpansionInput): Expansion {
  const spec = structuredClone(input.spec) as VirtualMachineInstanceSpec;
  const annotations = { ...input.annotations };
  const { instancetype, preference } = input;
  if (instancetype !== undefined) {
    const conflicts = applyInstancetype(input.base, instancetype.spec, preference?.spec, spec, annotations);
    if (conflicts.length > 0) return { conflicts };
    annotations[EXPANSION_ANNOTATIONS.instancetype[instancetype.scope]] = instancetype.name;
  }
  if (preference !== undefined) {
    applyPreference(preference.spec, spec, annotations);
    annotations[EXPANSION_ANNOTATIONS.preference[preference.scope]] = preference.name;
  }
  return { conflicts: [], spec, annotations };
}
