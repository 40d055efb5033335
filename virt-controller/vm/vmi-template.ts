import {
  API_VERSION,
  type Cause,
  type ClusterDefaults,
  conflictCauses,
  defaultVirtualMachine,
  defaultVirtualMachineInstanceSpec,
  expandVmTemplate,
  LABELS,
  legacyFirmwareUuid,
  type ResolvedReferences,
  validateAgainstReferences,
  validateVirtualMachine,
  validateVirtualMachineInstance,
} from "../../api/index.js";
import { type Frozen, mutableCopy } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";

/** On the VMI: the VM generation it was created from (the VM's status.observedGeneration). */
export const VM_GENERATION_ANNOTATION = "kubevirt.io/vm-generation";

/** What the VM references, resolved from its ControllerRevisions (none for a VM without references). */
const NO_REFERENCES: ResolvedReferences = {};

/**
 * The VMI a VM runs (KubeVirt's SetupVMIFromVM): named after the VM, labelled with it, owned by
 * it (controller, blockOwnerDeletion), the template's spec with a disk for every volume that
 * has none, the VM's instancetype and preference applied and KubeVirt's defaults, a stable
 * firmware UUID, and the VM's generation. Throws on a conflict with the instancetype, which
 * validateForStart reports first.
 */
export function renderVmi(
  vm: Frozen<VirtualMachine>,
  defaults: ClusterDefaults,
  options: { paused: boolean },
  references: ResolvedReferences = NO_REFERENCES,
): VirtualMachineInstance {
  const name = vm.metadata?.name ?? "";
  const templateMetadata = vm.spec.template.metadata ?? {};
  const expanded = expandVmTemplate(mutableCopy<VirtualMachine>(vm).spec.template, references, defaults);
  if (!("spec" in expanded)) {
    throw new Error(
      `VM ${name}: ${conflictCauses(expanded.conflicts)
        .map((cause) => cause.message)
        .join("; ")}`,
    );
  }
  const spec = defaultVirtualMachineInstanceSpec(expanded.spec, defaults, name);
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
        ...expanded.annotations,
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
 * KubeVirt's admission rules for the VM (after its defaults), then for what it references, then
 * for the VMI it would create: what virt-api's webhooks reject; the controller reports it too
 * (a VM stored before a rule existed, an instancetype changed after admission).
 */
export function validateForStart(
  vm: Frozen<VirtualMachine>,
  defaults: ClusterDefaults,
  featureGates: readonly string[],
  references: ResolvedReferences = NO_REFERENCES,
): Cause[] {
  const vmDefaulted = defaultVirtualMachine(mutableCopy<VirtualMachine>(vm), defaults);
  const causes = validateVirtualMachine(vmDefaulted, { featureGates });
  if (causes.length > 0) return causes;
  const referenceCauses = validateAgainstReferences("spec", mutableCopy<VirtualMachine>(vm).spec, references);
  if (referenceCauses.length > 0) return referenceCauses;
  return validateVirtualMachineInstance(renderVmi(vm, defaults, { paused: false }, references), {
    featureGates,
  });
}

/** One line for a Failure condition: every cause's message (each names its field). */
export function describeCauses(causes: readonly Cause[]): string {
  return `invalid spec: ${causes.map((cause) => cause.message).join("; ")}`;
}
