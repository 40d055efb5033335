import { Quantity } from "../../runtime/quantity/quantity.js";
import { conflictCauses } from "../instancetype/conflicts.js";
import { spreadTopologyProblem } from "../instancetype/cpu-topology.js";
import { expandSpec, type ResolvedReference } from "../instancetype/expand-vmi.js";
import type { VirtualMachineInstancetypeSpec } from "../instancetype/instancetype-spec.js";
import {
  instancetypeScopeOf,
  preferenceScopeOf,
  unexpectedKindMessage,
} from "../instancetype/matcher-kinds.js";
import type { VirtualMachinePreferenceSpec } from "../instancetype/preference-spec.js";
import type { VirtualMachineSpec } from "../vm/vm-spec.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, forbidden, invalid } from "./cause.js";
import { child } from "./field-path.js";
import {
  unhonouredInstancetypeCauses,
  unhonouredPreferenceCauses,
  validateInstancetypeSpec,
  validatePreferenceSpec,
} from "./instancetype-validation.js";
import { validateVirtualMachineInstanceSpec } from "./vmi-spec-validation.js";

/**
 * A VM's `spec.instancetype` / `spec.preference` as virt-api's VM admitter checks them. The rules
 * that need no lookup (the kind is one KubeVirt knows) are in `validateReferenceMatchers`, those of
 * a matcher to infer from a volume in `inferenceMatcherCauses` (virt-api's mutating webhook), and
 * those that need the referenced objects (conflicts with the template, the preference's
 * requirements) in `validateAgainstReferences`.
 */

export function validateReferenceMatchers(field: string, spec: VirtualMachineSpec): Cause[] {
  const causes: Cause[] = [];
  const matchers = [
    ["instancetype", spec.instancetype, instancetypeScopeOf, "InstancetypeMatcher"],
    ["preference", spec.preference, preferenceScopeOf, "PreferenceMatcher"],
  ] as const;
  for (const [name, matcher, scopeOf, matcherType] of matchers) {
    if (matcher === undefined) continue;
    const at = child(field, name);
    if (scopeOf(matcher.kind) === undefined) {
      causes.push(invalid(child(at, "kind"), unexpectedKindMessage(matcherType, matcher.kind ?? "")));
    }
  }
  return causes;
}

/**
 * KubeVirt's check of a matcher to infer, before virt-api's mutating webhook infers it (on the
 * object as sent: defaulting fills `kind`): the name and kind are what inference writes, so they
 * must not be given with `inferFromVolume`.
 */
export function inferenceMatcherCauses(field: string, spec: VirtualMachineSpec): Cause[] {
  const causes: Cause[] = [];
  for (const name of ["instancetype", "preference"] as const) {
    const matcher = spec[name];
    if (!matcher?.inferFromVolume) continue;
    for (const given of ["name", "kind"] as const) {
      if (!matcher[given]) continue;
      causes.push({
        reason: "FieldValueNotSupported",
        message: `${given === "name" ? "Name" : "Kind"} already set, should be cleared before setting inferFromVolume`,
        field: child(field, name, given),
      });
    }
  }
  return causes;
}

export interface ResolvedReferences {
  readonly instancetype?: ResolvedReference<VirtualMachineInstancetypeSpec>;
  readonly preference?: ResolvedReference<VirtualMachinePreferenceSpec>;
}

/**
 * The template against what the VM references: every conflict with the instancetype (KubeVirt's
 * message and the field's path), the preference's requirements and spread, and what the
 * referenced objects would give the VM that kubevirt-ts does not honour yet.
 */
export function validateAgainstReferences(
  field: string,
  spec: VirtualMachineSpec,
  resolved: ResolvedReferences,
): Cause[] {
  const { instancetype, preference } = resolved;
  const causes: Cause[] = [];
  if (instancetype !== undefined) {
    causes.push(
      ...referencedObjectCauses(child(field, "instancetype"), instancetype.name, [
        ...validateInstancetypeSpec("spec", instancetype.spec),
        ...unhonouredInstancetypeCauses("spec", instancetype.spec),
      ]),
    );
  }
  if (preference !== undefined) {
    causes.push(
      ...referencedObjectCauses(child(field, "preference"), preference.name, [
        ...validatePreferenceSpec("spec", preference.spec),
        ...unhonouredPreferenceCauses("spec", preference.spec),
      ]),
    );
  }
  const templateSpec = spec.template.spec ?? { domain: { devices: {} } };
  const expansion = expandSpec({
    base: child(field, "template", "spec"),
    ...(instancetype !== undefined ? { instancetype } : {}),
    ...(preference !== undefined ? { preference } : {}),
    spec: templateSpec,
    annotations: { ...(spec.template.metadata?.annotations ?? {}) },
  });
  causes.push(...conflictCauses(expansion.conflicts));
  // An object already refused for what it would give says it better than its expansion would.
  const objectsRefused = causes.length > 0;
  if (!objectsRefused && "spec" in expansion && expansion.spec !== undefined) {
    causes.push(...expandedSpecCauses(child(field, "template", "spec"), templateSpec, expansion.spec));
  }
  if (instancetype !== undefined) {
    const spread = spreadTopologyProblem(instancetype.spec.cpu.guest, preference?.spec);
    if (spread !== undefined) causes.push(invalid(child(field, "instancetype"), spread));
  }
  if (preference?.spec.requirements !== undefined) {
    causes.push(...requirementCauses(field, spec, instancetype?.spec, preference.spec));
  }
  return causes;
}

/**
 * The template as the VMI will get it, validated as a VMI's spec is (KubeVirt's VM admitter does
 * the same): what the instancetype and preference add must be as valid and as honoured as what
 * the VM says itself. Causes the template alone gives are reported by the VM's own validation.
 */
function expandedSpecCauses(
  at: string,
  template: VirtualMachineInstanceSpec,
  expanded: VirtualMachineInstanceSpec,
): Cause[] {
  const own = new Set(validateVirtualMachineInstanceSpec(at, template).map(causeKey));
  return validateVirtualMachineInstanceSpec(at, expanded).filter((cause) => !own.has(causeKey(cause)));
}

function causeKey(cause: Cause): string {
  return `${cause.field}\u0000${cause.message}`;
}

function referencedObjectCauses(at: string, name: string, causes: Cause[]): Cause[] {
  return causes.map((cause) => forbidden(at, `${name}: ${cause.message}`));
}

/** KubeVirt's preference requirements check, with its messages. */
function requirementCauses(
  field: string,
  spec: VirtualMachineSpec,
  instancetype: VirtualMachineInstancetypeSpec | undefined,
  preference: VirtualMachinePreferenceSpec,
): Cause[] {
  const requirements = preference.requirements ?? {};
  const causes: Cause[] = [];
  const domain = spec.template.spec?.domain;
  const requiredCpus = requirements.cpu?.guest;
  if (requiredCpus !== undefined && requiredCpus > 0) {
    if (instancetype !== undefined) {
      if (instancetype.cpu.guest < requiredCpus) {
        causes.push(
          invalid(
            child(field, "instancetype"),
            `failure checking preference requirements: insufficient CPU resources of ${instancetype.cpu.guest} vCPU provided by instance type, preference requires ${requiredCpus} vCPU`,
          ),
        );
      }
    } else {
      const cpu = domain?.cpu;
      const cpus = cpu ? (cpu.sockets || 1) * (cpu.cores || 1) * (cpu.threads || 1) : 0;
      const at = child(field, "template", "spec", "domain", "cpu");
      if (!cpu || (!cpu.sockets && !cpu.cores && !cpu.threads)) {
        causes.push(
          invalid(
            at,
            `failure checking preference requirements: no CPU resources provided by VirtualMachine, preference requires ${requiredCpus} vCPU`,
          ),
        );
      } else if (cpus < requiredCpus) {
        causes.push(
          invalid(
            at,
            `failure checking preference requirements: insufficient CPU resources of ${cpus} vCPU provided by VirtualMachine, preference requires ${requiredCpus} vCPU`,
          ),
        );
      }
    }
  }
  const requiredMemory = Quantity.tryParse(requirements.memory?.guest);
  if (requiredMemory !== undefined && requiredMemory.sign() > 0) {
    const text = String(requirements.memory?.guest);
    const provided =
      instancetype?.memory.guest ?? domain?.memory?.guest ?? domain?.resources?.requests?.memory;
    const providedQuantity = Quantity.tryParse(provided);
    const by = instancetype !== undefined ? "instance type" : "VirtualMachine";
    const at =
      instancetype !== undefined
        ? child(field, "instancetype")
        : child(field, "template", "spec", "domain", "memory");
    if (providedQuantity === undefined || providedQuantity.compare(requiredMemory) < 0) {
      causes.push(
        invalid(
          at,
          `failure checking preference requirements: insufficient Memory resources of ${String(provided ?? 0)} provided by ${by}, preference requires ${text}`,
        ),
      );
    }
  }
  return causes;
}
