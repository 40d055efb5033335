import {
  API_VERSION,
  type Cause,
  type ClusterDefaults,
  defaultVirtualMachine,
  defaultVirtualMachineInstanceSpec,
  LABELS,
  legacyFirmwareUuid,
  type VirtualMachineInstanceSpec,
  validateVirtualMachine,
  validateVirtualMachineInstance,
  withVolumeDisks,
} from "../../api/index.js";
import { type Frozen, mutableCopy } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";

/** On the VMI: the VM generation it was created from (the VM's status.observedGeneration). */
export const VM_GENERATION_ANNOTATION = "kubevirt.io/vm-generation";

/**
 * The VMI a VM runs (KubeVirt's SetupVMIFromVM): named after the VM, labelled with it, owned by
 * it (controller, blockOwnerDeletion), the template's spec with a disk for every volume that
 * has none and KubeVirt's defaults applied, a stable firmware UUID, and the VM's generation.
 */
export function renderVmi(
  vm: Frozen<VirtualMachine>,
  defaults: ClusterDefaults,
  options: { paused: boolean },
): VirtualMachineInstance {
  const name = vm.metadata?.name ?? "";
  const template = vm.spec.template;
  const templateMetadata = template.metadata ?? {};
  const templateSpec = mutableCopy<VirtualMachineInstanceSpec>(template.spec ?? { domain: { devices: {} } });
  const spec = defaultVirtualMachineInstanceSpec(withVolumeDisks(templateSpec), defaults, name);
  spec.domain.firmware ??= {};
  spec.domain.firmware.uuid ||= legacyFirmwareUuid(name);
  if (options.paused) spec.startStrategy = "Paused";
  return {
    apiVersion: API_VERSION,
    kind: "VirtualMachineInstance",
    metadata: {
      name,
      namespace: vm.metadata?.namespace ?? "",
      labels: { ...(templateMetadata.labels ?? {}), [LABELS.vm]: name },
      annotations: {
        ...(templateMetadata.annotations ?? {}),
        [VM_GENERATION_ANNOTATION]: String(vm.metadata?.generation ?? 0),
      },
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: "VirtualMachine",
          name,
          uid: vm.metadata?.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec,
  };
}

/**
 * KubeVirt's admission rules for the VM (after its defaults), then for the VMI it would create:
 * what virt-api's webhooks will reject; until they exist, the controller reports it instead.
 */
export function validateForStart(
  vm: Frozen<VirtualMachine>,
  defaults: ClusterDefaults,
  featureGates: readonly string[],
): Cause[] {
  const vmDefaulted = defaultVirtualMachine(mutableCopy<VirtualMachine>(vm), defaults);
  const causes = validateVirtualMachine(vmDefaulted, { featureGates });
  if (causes.length > 0) return causes;
  return validateVirtualMachineInstance(renderVmi(vm, defaults, { paused: false }), { featureGates });
}

/** One line for a Failure condition: every cause's message (each names its field). */
export function describeCauses(causes: readonly Cause[]): string {
  return `invalid spec: ${causes.map((cause) => cause.message).join("; ")}`;
}
