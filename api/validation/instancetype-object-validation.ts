import {
  VirtualMachineClusterInstancetypeKind,
  VirtualMachineClusterPreferenceKind,
  VirtualMachineInstancetypeKind,
  VirtualMachinePreferenceKind,
} from "../instancetype/instancetype-kinds.js";
import { type Cause, invalid } from "./cause.js";
import { validateInstancetypeSpec, validatePreferenceSpec } from "./instancetype-validation.js";

/**
 * The four instancetype.kubevirt.io kinds as whole objects: the shape first (what the API server
 * checks against the CRD), then, when it is right, the rules of instancetype-validation.ts.
 */

type Definition =
  | typeof VirtualMachineInstancetypeKind
  | typeof VirtualMachineClusterInstancetypeKind
  | typeof VirtualMachinePreferenceKind
  | typeof VirtualMachineClusterPreferenceKind;

function shapeCauses(definition: Definition, value: unknown): Cause[] {
  const causes = definition.validator.validate(value);
  return causes.length > 0
    ? causes
    : [invalid("", `the object does not have the shape of a ${definition.kind}`)];
}

/** A VirtualMachineInstancetype or VirtualMachineClusterInstancetype (`cluster`). */
export function validateInstancetype(value: unknown, cluster = false): Cause[] {
  const definition = cluster ? VirtualMachineClusterInstancetypeKind : VirtualMachineInstancetypeKind;
  if (!definition.validator.check(value)) return shapeCauses(definition, value);
  return validateInstancetypeSpec("spec", value.spec);
}

/** A VirtualMachinePreference or VirtualMachineClusterPreference (`cluster`). */
export function validatePreference(value: unknown, cluster = false): Cause[] {
  const definition = cluster ? VirtualMachineClusterPreferenceKind : VirtualMachinePreferenceKind;
  if (!definition.validator.check(value)) return shapeCauses(definition, value);
  return validatePreferenceSpec("spec", value.spec);
}
