/**
 * The validating webhooks: api/'s validation of the whole object (shape, then KubeVirt's
 * rules), on the object as defaulted. An UPDATE that leaves the spec as it was is allowed
 * without looking further: status, label and finalizer writes must never be refused because a
 * rule changed after the object was stored.
 */
import {
  type Cause,
  type VirtualMachineValidationOptions,
  validateDataVolume,
  validateInstancetype,
  validateKubeVirt,
  validatePoolSelectorUnchanged,
  validatePreference,
  validateVirtualMachine,
  validateVirtualMachineInstance,
  validateVirtualMachineInstanceReplicaSet,
  validateVirtualMachinePool,
} from "../../api/index.js";
import { jsonEqual } from "../../runtime/index.js";
import type { ClusterSettings } from "../config/cluster-settings.js";
import type { AdmissionRequest } from "./admission-review.js";
import { type Defaulter, defaultedOrAsSent, defaultsOf } from "./mutators.js";
import { vmiRestrictionCauses } from "./vmi-update-restrictions.js";

export interface ObjectValidator {
  readonly defaulter: Defaulter;
  validate(object: unknown, settings: ClusterSettings): Cause[];
  /** What the requester may not change whatever the spec says (KubeVirt's own fields). */
  restrict?(request: AdmissionRequest, installNamespace: string): Cause[];
}

/** What the rules need of the cluster: the gates and the registered binding plugins. */
function clusterFacts(settings: ClusterSettings): VirtualMachineValidationOptions {
  return { featureGates: settings.featureGates, bindingPlugins: settings.bindingPlugins };
}

export const validatorsOf = {
  virtualMachine: {
    defaulter: defaultsOf.virtualMachine,
    validate: (object, settings) => validateVirtualMachine(object, clusterFacts(settings)),
  },
  virtualMachineInstance: {
    defaulter: defaultsOf.virtualMachineInstance,
    validate: (object, settings) => validateVirtualMachineInstance(object, clusterFacts(settings)),
    restrict: vmiRestrictionCauses,
  },
  replicaSet: {
    defaulter: defaultsOf.replicaSet,
    validate: (object, settings) => validateVirtualMachineInstanceReplicaSet(object, clusterFacts(settings)),
  },
  kubeVirt: {
    defaulter: defaultsOf.kubeVirt,
    validate: (object) => validateKubeVirt(object),
  },
  virtualMachinePool: {
    // KubeVirt has no pool mutator: the pool is stored as sent, its VMs are defaulted by the VM
    // webhook when the pool controller creates them (and the template is checked so defaulted).
    defaulter: (object) => object,
    validate: (object, settings) =>
      validateVirtualMachinePool(object, { ...clusterFacts(settings), defaults: settings.defaults }),
    restrict: (request) =>
      request.operation === "UPDATE"
        ? validatePoolSelectorUnchanged(specOf(request.object), specOf(request.oldObject))
        : [],
  },
  dataVolume: {
    // DataVolumes have no defaults of ours (CDI's webhook does not default either).
    defaulter: (object) => object,
    validate: (object) => validateDataVolume(object),
  },
  // instancetype.kubevirt.io kinds have no defaults.
  instancetype: { defaulter: (object) => object, validate: (object) => validateInstancetype(object) },
  clusterInstancetype: {
    defaulter: (object) => object,
    validate: (object) => validateInstancetype(object, true),
  },
  preference: { defaulter: (object) => object, validate: (object) => validatePreference(object) },
  clusterPreference: {
    defaulter: (object) => object,
    validate: (object) => validatePreference(object, true),
  },
} satisfies Record<string, ObjectValidator>;

/** The causes to deny the request with; empty allows it. */
export function admissionCauses(
  request: AdmissionRequest,
  validator: ObjectValidator,
  settings: ClusterSettings,
  installNamespace: string,
): Cause[] {
  if (request.operation !== "CREATE" && request.operation !== "UPDATE") return [];
  const restricted = validator.restrict?.(request, installNamespace) ?? [];
  if (restricted.length > 0) return restricted;
  if (request.operation === "UPDATE" && sameSpec(request.object, request.oldObject)) return [];
  return validator.validate(defaultedOrAsSent(request.object, validator.defaulter, settings), settings);
}

function sameSpec(object: unknown, oldObject: unknown): boolean {
  return oldObject !== undefined && jsonEqual(specOf(object), specOf(oldObject));
}

function specOf(value: unknown): unknown {
  return value && typeof value === "object" ? (value as { spec?: unknown }).spec : undefined;
}
