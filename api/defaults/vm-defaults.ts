import type { VirtualMachine } from "../vm/virtual-machine.js";
import { fillApiDefaults } from "./api-defaults.js";
import { type ClusterDefaults, KUBEVIRT_DEFAULTS } from "./cluster-defaults.js";
import { legacyFirmwareUuid } from "./firmware-uuid.js";

/**
 * A VM with KubeVirt's defaults: the API defaults on its template, the cluster machine type,
 * the stable firmware UUID derived from the VM name, and the kinds of instancetype/preference
 * references. Resource requests, CPU topology and the pod network are defaulted later, on the
 * VMI the VM creates (as in KubeVirt). Pure: the input is not modified.
 */
export function defaultVirtualMachine(
  vm: VirtualMachine,
  cluster: ClusterDefaults = KUBEVIRT_DEFAULTS,
): VirtualMachine {
  const copy = structuredClone(vm);
  const spec = copy.spec;
  const templateSpec = spec.template.spec;
  if (templateSpec !== undefined) {
    fillApiDefaults(templateSpec);
    // With a preference the machine type waits for the VMI: the preference may choose it (KubeVirt's
    // VM mutator defaults it from the preference first).
    if (spec.preference === undefined) {
      templateSpec.domain.machine ??= {};
      templateSpec.domain.machine.type ||= cluster.machineType;
    }
    const name = copy.metadata?.name;
    if (name !== undefined && templateSpec.domain.firmware !== undefined) {
      templateSpec.domain.firmware.uuid ||= legacyFirmwareUuid(name);
    }
  }
  if (spec.instancetype !== undefined) spec.instancetype.kind ||= "VirtualMachineClusterInstancetype";
  if (spec.preference !== undefined) spec.preference.kind ||= "VirtualMachineClusterPreference";
  return copy;
}
