/**
 * A VM with its instancetype and preference applied to its template, as the VMI will get it
 * (KubeVirt's pkg/instancetype/expand): virt-controller renders the VMI from this template, and
 * virt-api's `expand-spec` shows users the same VM with the matchers gone and the defaults filled.
 */
import type { ClusterDefaults } from "../defaults/cluster-defaults.js";
import {
  defaultVirtualMachineInstanceSpec,
  withDefaultNetworkInterface,
  withVolumeDisks,
} from "../defaults/vmi-defaults.js";
import type { ResolvedReferences } from "../validation/vm-references-validation.js";
import type { VirtualMachine } from "../vm/virtual-machine.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { expandSpec } from "./expand-vmi.js";

export type ExpandedTemplate =
  | { readonly spec: VirtualMachineInstanceSpec; readonly annotations: Record<string, string> }
  | { readonly conflicts: readonly string[] };

/**
 * The template's spec (a disk for every volume that has none, the pod network's interface when
 * it has none) and annotations with the VM's instancetype and preference applied, before the
 * VMI's other defaults (KubeVirt applies them first, so defaults never mask a preference); or the
 * paths that conflict with the instancetype.
 */
export function expandVmTemplate(
  template: VirtualMachine["spec"]["template"],
  references: ResolvedReferences,
  defaults: ClusterDefaults,
): ExpandedTemplate {
  const withDisks = withVolumeDisks(template.spec ?? { domain: { devices: {} } });
  // As KubeVirt's VM controller: the auto-attach preferences first, so that a preference for no
  // pod interface keeps the default one out.
  const autoattach = references.preference?.spec.devices?.preferredAutoattachPodInterface;
  if (autoattach !== undefined) withDisks.domain.devices.autoattachPodInterface ??= autoattach;
  const spec = withDefaultNetworkInterface(withDisks, defaults);
  const annotations = { ...(template.metadata?.annotations ?? {}) };
  if (references.instancetype === undefined && references.preference === undefined) {
    return { spec, annotations };
  }
  const expansion = expandSpec({ base: "spec.template.spec", ...references, spec, annotations });
  return "spec" in expansion
    ? { spec: expansion.spec, annotations: expansion.annotations }
    : { conflicts: expansion.conflicts };
}

/**
 * The VM as `expand-spec` returns it: its template expanded and defaulted, and no matchers or
 * refs left (the VM is now self-contained, as KubeVirt's expander leaves it). A VM without
 * matchers comes back as it is.
 */
export function expandVirtualMachine<T extends VirtualMachine>(
  vm: T,
  references: ResolvedReferences,
  defaults: ClusterDefaults,
): { readonly vm: T } | { readonly conflicts: readonly string[] } {
  if (vm.spec.instancetype === undefined && vm.spec.preference === undefined) return { vm };
  const expanded = expandVmTemplate(vm.spec.template, references, defaults);
  if ("conflicts" in expanded) return expanded;
  const { instancetype: _instancetype, preference: _preference, ...spec } = structuredClone(vm.spec);
  const metadata = { ...(spec.template.metadata ?? {}) };
  if (Object.keys(expanded.annotations).length > 0) metadata.annotations = expanded.annotations;
  spec.template = {
    ...spec.template,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    spec: defaultVirtualMachineInstanceSpec(expanded.spec, defaults, vm.metadata?.name),
  };
  const result: T = { ...structuredClone(vm), spec };
  if (result.status !== undefined) {
    const { instancetypeRef: _instancetypeRef, preferenceRef: _preferenceRef, ...status } = result.status;
    result.status = status;
  }
  return { vm: result };
}
