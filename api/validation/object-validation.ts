import type { Static, TSchema } from "@sinclair/typebox";
import { DataVolumeKind } from "../cdi/data-volume.js";
import type { KindDefinition } from "../kind.js";
import { KubeVirtKind } from "../kubevirt/kubevirt.js";
import { VirtualMachineInstanceMigrationKind } from "../migration/virtual-machine-instance-migration.js";
import { VirtualMachineInstanceReplicaSetKind } from "../replicaset/virtual-machine-instance-replica-set.js";
import { VirtualMachineKind } from "../vm/virtual-machine.js";
import { VirtualMachineInstanceKind } from "../vmi/virtual-machine-instance.js";
import { type Cause, invalid } from "./cause.js";
import { validateDataVolumeSpec } from "./data-volume-validation.js";
import { validateDomainName } from "./domain-name-validation.js";
import { type FeatureGateOptions, validateFeatureGatedFields } from "./feature-gates-validation.js";
import {
  validateKubeVirtSpec,
  validateMigrationSpec,
  validateReplicaSetSpec,
} from "./other-kinds-validation.js";
import { validateMemoryIsSet } from "./resources-validation.js";
import { type VirtualMachineValidationOptions, validateVirtualMachineSpec } from "./vm-validation.js";
import { validateVirtualMachineInstanceSpec } from "./vmi-spec-validation.js";
import { validateVolumesHaveDisks } from "./volumes-validation.js";

/**
 * Whole-object validation: the shape (what the API server checks against the CRD) and then, only
 * when the shape is right, KubeVirt's semantic rules. An empty array means valid. Run the kind's
 * defaulting first, as KubeVirt's mutating webhook runs before its validating one.
 */

function validated<Spec extends TSchema, Status extends TSchema>(
  kind: KindDefinition<Spec, Status>,
  value: unknown,
  semantics: (object: Static<KindDefinition<Spec, Status>["schema"]>) => Cause[],
): Cause[] {
  if (kind.validator.check(value)) return semantics(value);
  const causes = kind.validator.validate(value);
  return causes.length > 0 ? causes : [invalid("", `the object does not have the shape of a ${kind.kind}`)];
}

export function validateVirtualMachineInstance(value: unknown, options: FeatureGateOptions = {}): Cause[] {
  return validated(VirtualMachineInstanceKind, value, (vmi) => [
    ...validateDomainName(vmi.metadata),
    ...validateVirtualMachineInstanceSpec("spec", vmi.spec),
    ...validateFeatureGatedFields("spec", vmi.spec, options),
    ...validateVolumesHaveDisks("spec", vmi.spec),
    ...validateMemoryIsSet("spec", vmi.spec),
  ]);
}

export function validateVirtualMachine(
  value: unknown,
  options: VirtualMachineValidationOptions = {},
): Cause[] {
  return validated(VirtualMachineKind, value, (vm) => {
    const templateSpec = vm.spec.template.spec;
    return [
      // The VM's name becomes its VMI's, and so its domain's.
      ...validateDomainName(vm.metadata),
      ...validateVirtualMachineSpec("spec", vm.spec, {
        ...options,
        namespace: options.namespace ?? vm.metadata?.namespace ?? "",
      }),
      ...(templateSpec ? validateFeatureGatedFields("spec.template.spec", templateSpec, options) : []),
    ];
  });
}

export function validateVirtualMachineInstanceReplicaSet(
  value: unknown,
  options: FeatureGateOptions = {},
): Cause[] {
  return validated(VirtualMachineInstanceReplicaSetKind, value, (replicaSet) => {
    const templateSpec = replicaSet.spec.template?.spec;
    return [
      ...validateReplicaSetSpec("spec", replicaSet.spec),
      ...(templateSpec ? validateFeatureGatedFields("spec.template.spec", templateSpec, options) : []),
    ];
  });
}

export function validateVirtualMachineInstanceMigration(value: unknown): Cause[] {
  return validated(VirtualMachineInstanceMigrationKind, value, (migration) =>
    validateMigrationSpec("spec", migration.spec),
  );
}

export function validateKubeVirt(value: unknown): Cause[] {
  return validated(KubeVirtKind, value, (kubevirt) => validateKubeVirtSpec("spec", kubevirt.spec));
}

/** A DataVolume: its shape, and what kubevirt-ts's importer can do (data-volume-validation.ts). */
export function validateDataVolume(value: unknown): Cause[] {
  return validated(DataVolumeKind, value, (dv) =>
    validateDataVolumeSpec("spec", dv.spec, dv.metadata?.namespace ?? ""),
  );
}
