import { FEATURE_GATES } from "../kubevirt/feature-gates.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid } from "./cause.js";
import { child, index } from "./field-path.js";

/** Cluster facts some rules depend on: the feature gates the KubeVirt CR enables. */
export interface FeatureGateOptions {
  readonly featureGates?: Iterable<string>;
  /**
   * The network binding plugins the CR registers (`spec.configuration.network.binding`); given, an
   * interface naming another plugin is refused. virt-api gives it; a caller without the CR omits it.
   */
  readonly bindingPlugins?: Iterable<string>;
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
  (spec.domain.devices.interfaces ?? []).forEach((iface, position) => {
    const nameField = child(index(child(field, "domain", "devices", "interfaces"), position), "name");
    if (iface.passtBinding !== undefined && !enabled.has(FEATURE_GATES.passtBinding)) {
      causes.push(invalid(nameField, `${FEATURE_GATES.passtBinding} feature gate is not enabled`));
    }
  });
  if (options.bindingPlugins !== undefined)
    causes.push(...validateBindingPlugins(field, spec, options.bindingPlugins));
  return causes;
}

/** An interface's binding plugin must be registered in the KubeVirt CR, as KubeVirt requires. */
function validateBindingPlugins(
  field: string,
  spec: VirtualMachineInstanceSpec,
  registered: Iterable<string>,
): Cause[] {
  const plugins = new Set(registered);
  return (spec.domain.devices.interfaces ?? []).flatMap((iface, position) => {
    const name = iface.binding?.name;
    if (name === undefined || plugins.has(name)) return [];
    const bindingField = child(index(child(field, "domain", "devices", "interfaces"), position), "binding");
    return [
      invalid(
        child(bindingField, "name"),
        `logical ${iface.name} interface uses the binding plugin ${name}, which is not registered in the KubeVirt CR's spec.configuration.network.binding`,
      ),
    ];
  });
}
