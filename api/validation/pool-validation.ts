import { labelsMatch } from "../../runtime/labels/label-selector.js";
import { type LabelSelector, labelSelectorErrors } from "../core/label-selector.js";
import { type ClusterDefaults, KUBEVIRT_DEFAULTS } from "../defaults/cluster-defaults.js";
import { defaultVirtualMachine } from "../defaults/vm-defaults.js";
import { GROUP, VERSION } from "../kind.js";
import { VirtualMachinePoolKind, type VirtualMachinePoolSpec } from "../pool/virtual-machine-pool.js";
import type { VirtualMachine } from "../vm/virtual-machine.js";
import { type Cause, forbidden, invalid } from "./cause.js";
import { child, index } from "./field-path.js";
import { validateVirtualMachine } from "./object-validation.js";
import type { VirtualMachineValidationOptions } from "./vm-validation.js";

export interface PoolValidationOptions extends VirtualMachineValidationOptions {
  /** The cluster's VM defaults: the template is checked as its VMs will be, after the VM webhook. */
  readonly defaults?: ClusterDefaults;
}

/**
 * A VirtualMachinePool as KubeVirt's pool admitter checks it (the VM template with the VM rules,
 * a selector that matches the template's labels), and refusal of what kubevirt-ts's pool
 * controller does not do yet: accepted means honoured.
 */
export function validateVirtualMachinePool(value: unknown, options: PoolValidationOptions = {}): Cause[] {
  if (!VirtualMachinePoolKind.validator.check(value)) {
    const causes = VirtualMachinePoolKind.validator.validate(value);
    return causes.length > 0
      ? causes
      : [invalid("", "the object does not have the shape of a VirtualMachinePool")];
  }
  const spec = value.spec;
  return [
    ...validateTemplate(value.metadata?.name ?? "", value.metadata?.namespace ?? "", spec, options),
    ...validatePoolSelector("spec.selector", spec.selector, templateLabels(spec)),
    ...unsupportedFields("spec", spec),
  ];
}

/** KubeVirt: "selector is immutable after creation." */
export function validatePoolSelectorUnchanged(spec: unknown, oldSpec: unknown): Cause[] {
  const selector = (value: unknown) =>
    JSON.stringify((value as { selector?: unknown } | undefined)?.selector);
  return selector(spec) === selector(oldSpec)
    ? []
    : [invalid("spec.selector", "selector is immutable after creation.")];
}

/** The labels the pool gives its VMs. */
export function templateLabels(spec: {
  readonly virtualMachineTemplate: {
    readonly metadata?: { readonly labels?: Readonly<Record<string, string>> } | null;
  };
}): Record<string, string> {
  return { ...(spec.virtualMachineTemplate.metadata?.labels ?? {}) };
}

/** The template as a VM of the pool (its highest index names it), defaulted, checked by the VM rules. */
function validateTemplate(
  poolName: string,
  namespace: string,
  spec: VirtualMachinePoolSpec,
  options: PoolValidationOptions,
): Cause[] {
  const highestIndex = Math.max((spec.replicas ?? 1) - 1, 0);
  const vm: VirtualMachine = {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: "VirtualMachine",
    metadata: { name: `${poolName}-${highestIndex}`, namespace, labels: templateLabels(spec) },
    spec: structuredClone(spec.virtualMachineTemplate.spec),
  };
  const causes = validateVirtualMachine(defaultVirtualMachine(vm, options.defaults ?? KUBEVIRT_DEFAULTS), {
    ...options,
    namespace,
  });
  return causes.map((cause) => ({ ...cause, field: templateField(cause.field) }));
}

/** A VM's `spec...` is the pool's `spec.virtualMachineTemplate.spec...`; its name is the pool's. */
function templateField(field: string): string {
  if (field === "spec" || field.startsWith("spec.") || field.startsWith("spec[")) {
    return `spec.virtualMachineTemplate.${field}`;
  }
  return field;
}

function validatePoolSelector(
  field: string,
  selector: LabelSelector,
  labels: Record<string, string>,
): Cause[] {
  const errors = labelSelectorErrors(selector);
  if (errors.length > 0) {
    return errors.map((error) =>
      invalid(index(child(field, "matchExpressions"), error.index), error.message),
    );
  }
  return labelsMatch(selector, labels) ? [] : [invalid(field, "selector does not match labels.")];
}

function notYet(field: string, why: string): Cause {
  return forbidden(field, `${field} is not supported yet: ${why}`);
}

/** What the pool controller does not do yet (virt-controller/README.md, "VirtualMachinePool"). */
function unsupportedFields(field: string, spec: VirtualMachinePoolSpec): Cause[] {
  const causes: Cause[] = [];
  if (spec.maxUnavailable !== undefined) {
    causes.push(
      notYet(child(field, "maxUnavailable"), "it limits proactive updates, which kubevirt-ts does not make"),
    );
  }
  if (spec.autohealing !== undefined) {
    causes.push(notYet(child(field, "autohealing"), "kubevirt-ts does not replace VMs that fail to start"));
  }
  const update = spec.updateStrategy;
  const updateField = child(field, "updateStrategy");
  if (update?.proactive !== undefined) {
    causes.push(
      notYet(
        child(updateField, "proactive"),
        "kubevirt-ts updates a pool's VMs, and their VMIs follow at the next restart; use opportunistic or unmanaged",
      ),
    );
  }
  if (update !== undefined) causes.push(...atMostOneStrategy(updateField, update));
  const scaleIn = spec.scaleInStrategy;
  const scaleInField = child(field, "scaleInStrategy");
  if (scaleIn !== undefined) causes.push(...atMostOneStrategy(scaleInField, scaleIn));
  for (const mode of ["opportunistic", "proactive"] as const) {
    const preservation = scaleIn?.[mode]?.statePreservation;
    if (preservation !== undefined && preservation !== "Disabled") {
      causes.push(
        notYet(
          child(scaleInField, mode, "statePreservation"),
          `${preservation} keeps the VMs' claims for a later scale-out, which kubevirt-ts does not do; use Disabled`,
        ),
      );
    }
  }
  const selectors = scaleIn?.proactive?.selectionPolicy?.selectors;
  if (selectors?.labelSelector !== undefined) {
    const selectorField = child(scaleInField, "proactive", "selectionPolicy", "selectors", "labelSelector");
    for (const error of labelSelectorErrors(selectors.labelSelector)) {
      causes.push(invalid(index(child(selectorField, "matchExpressions"), error.index), error.message));
    }
  }
  return causes;
}

function atMostOneStrategy(field: string, strategy: Record<string, unknown>): Cause[] {
  const set = ["unmanaged", "opportunistic", "proactive"].filter((mode) => strategy[mode] !== undefined);
  return set.length > 1 ? [invalid(field, `${field}: only one of ${set.join(", ")} may be set`)] : [];
}
