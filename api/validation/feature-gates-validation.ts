import { FEATURE_GATES } from "../kubevirt/feature-gates.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid } from "./cause.js";
import { child, index } from "./field-path.js";

/** Cluster facts some rules depend on: the feature gates the KubeVirt CR enables. */
export interface FeatureGateOptions {
  readonly featureGates?: Iterable<string>;
}

/**
 * Fields that need a feature gate, refused with KubeVirt's wording while it is off. `hostDisk`
 * attaches a file of the node to the guest: without the HostDisk gate, whoever may write a VMI in
 * one namespace could read and write any file of any node.
 */
export function validateFeatureGatedFields(
  field: string,
  spec: VirtualMachineInstanceSpec,
  options: FeatureGateOptions,
): Cause[] {
  const enabled = new Set(options.featureGates ?? []);
  const causes: Cause[] = [];
  (spec.volumes ?? []).forEach((volume, position) => {
    if (volume.hostDisk !== undefined && !enabled.has(FEATURE_GATES.hostDisk)) {
      causes.push(
        invalid(
          index(child(field, "volumes"), position),
          `${FEATURE_GATES.hostDisk} feature gate is not enabled`,
        ),
      );
    }
  });
  return causes;
}
