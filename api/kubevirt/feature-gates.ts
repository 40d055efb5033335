// KubeVirt's feature gates: `spec.configuration.developerConfiguration.featureGates` turns a gate
// on, `disabledFeatureGates` off. A gated field is refused at admission and never acted on by the
// node while its gate is off, whichever component looks.

/** The gates kubevirt-ts acts on, by KubeVirt's names. Each is off unless the CR enables it. */
export const FEATURE_GATES = {
  /** `hostDisk` volumes: a file on the node's file system, chosen by whoever writes the VMI. */
  hostDisk: "HostDisk",
  /** `passtBinding` interfaces (KubeVirt 1.8's core passt binding, Beta). */
  passtBinding: "PasstBinding",
  /**
   * The addvolume/removevolume subresources, queued on a VM in `status.volumeRequests` (and the
   * VMI ones for VMIs of their own); deprecated in KubeVirt for DeclarativeHotplugVolumes.
   */
  hotplugVolumes: "HotplugVolumes",
  /** The same subresources, applied to the VM's template directly (hotplug by editing the VM). */
  declarativeHotplugVolumes: "DeclarativeHotplugVolumes",
} as const;

export type FeatureGate = (typeof FEATURE_GATES)[keyof typeof FEATURE_GATES];

/** The part of `spec.configuration` that holds the gates (read-only views of it welcome). */
type GateConfiguration =
  | {
      readonly developerConfiguration?: {
        readonly featureGates?: readonly string[];
        readonly disabledFeatureGates?: readonly string[];
      };
    }
  | undefined;

/** The gates a configuration enables: listed in featureGates and not in disabledFeatureGates. */
export function enabledFeatureGates(configuration: GateConfiguration): ReadonlySet<string> {
  const developer = configuration?.developerConfiguration;
  const disabled = new Set(developer?.disabledFeatureGates ?? []);
  return new Set((developer?.featureGates ?? []).filter((gate) => !disabled.has(gate)));
}

export function featureGateEnabled(configuration: GateConfiguration, gate: FeatureGate): boolean {
  return enabledFeatureGates(configuration).has(gate);
}
