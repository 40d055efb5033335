import type { VirtualMachineSpec } from "../vm/vm-spec.js";
import { type Cause, forbidden, invalid, required } from "./cause.js";
import { validateDataVolumeSpec } from "./data-volume-validation.js";
import { child, index } from "./field-path.js";
import { validateReferenceMatchers } from "./vm-references-validation.js";
import { validateVirtualMachineInstanceSpec } from "./vmi-spec-validation.js";

/** Cluster facts some VM rules depend on (feature gates and binding plugins from the KubeVirt CR). */
export interface VirtualMachineValidationOptions {
  readonly featureGates?: readonly string[];
  readonly bindingPlugins?: readonly string[];
  /** The VM's namespace, where its DataVolumes' clone sources must be. */
  readonly namespace?: string;
}

/**
 * KubeVirt's semantic rules for a VM spec (virt-api's VM admitter): exactly one of runStrategy
 * and the deprecated running, a template with a valid VMI spec, data volume templates that the
 * template uses, named instancetype/preference references.
 */
export function validateVirtualMachineSpec(
  field: string,
  spec: VirtualMachineSpec,
  options: VirtualMachineValidationOptions = {},
): Cause[] {
  const causes = [
    ...validateRunStrategy(field, spec, options),
    ...validateDataVolumeTemplates(field, spec, options),
  ];
  const templateSpec = spec.template.spec;
  if (templateSpec === undefined) causes.push(required(child(field, "template", "spec")));
  else causes.push(...validateVirtualMachineInstanceSpec(child(field, "template", "spec"), templateSpec));
  for (const matcher of ["instancetype", "preference"] as const) {
    const reference = spec[matcher];
    if (reference !== undefined && !reference.name && !reference.inferFromVolume) {
      causes.push(required(child(field, matcher, "name"), `${child(field, matcher, "name")} must be set`));
    }
  }
  causes.push(...validateReferenceMatchers(field, spec));
  return causes;
}

function validateRunStrategy(
  field: string,
  spec: VirtualMachineSpec,
  options: VirtualMachineValidationOptions,
): Cause[] {
  if (spec.running !== undefined && spec.runStrategy !== undefined) {
    return [
      invalid(
        child(field, "running"),
        "Running and RunStrategy are mutually exclusive. Note that Running is deprecated, please use RunStrategy instead",
      ),
    ];
  }
  if (spec.running === undefined && spec.runStrategy === undefined) {
    return [
      required(
        child(field, "runStrategy"),
        `RunStrategy must be specified (${child(field, "running")} is deprecated)`,
      ),
    ];
  }
  if (
    spec.runStrategy === "WaitAsReceiver" &&
    !(options.featureGates ?? []).includes("DecentralizedLiveMigration")
  ) {
    return [
      forbidden(
        child(field, "runStrategy"),
        "RunStrategy WaitAsReceiver requires the DecentralizedLiveMigration feature gate",
      ),
    ];
  }
  return [];
}

function validateDataVolumeTemplates(
  field: string,
  spec: VirtualMachineSpec,
  options: VirtualMachineValidationOptions,
): Cause[] {
  const templatesField = child(field, "dataVolumeTemplates");
  const dataVolumes = new Set(
    (spec.template.spec?.volumes ?? []).flatMap((volume) => volume.dataVolume?.name ?? []),
  );
  const causes: Cause[] = [];
  (spec.dataVolumeTemplates ?? []).forEach((template, position) => {
    const templateField = index(templatesField, position);
    const metadata = template.metadata;
    const name = metadata === null || metadata === undefined ? undefined : metadata.name;
    if (!name) {
      causes.push(
        required(
          child(templateField, "metadata", "name"),
          `'name' field must not be empty for DataVolumeTemplate entry ${templateField}.`,
        ),
      );
    } else if (!dataVolumes.has(name)) {
      causes.push(
        invalid(
          templateField,
          `DataVolumeTemplate entry ${templateField} must be referenced in the VMI template's 'volumes' list`,
        ),
      );
    }
    causes.push(
      ...validateDataVolumeSpec(child(templateField, "spec"), template.spec, options.namespace ?? ""),
    );
  });
  return causes;
}

/** The run strategy a VM asks for, honouring the deprecated `running` (true = Always, false = Halted). */
export function effectiveRunStrategy(
  spec: VirtualMachineSpec,
): NonNullable<VirtualMachineSpec["runStrategy"]> {
  if (spec.runStrategy !== undefined) return spec.runStrategy;
  return spec.running === true ? "Always" : "Halted";
}
