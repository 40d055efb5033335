// The node's own check of feature-gated fields: admission refuses them while their gate is off, but
// a VMI stored before the gate went off (or restored from a backup, past admission) must still
// never reach the host. Only a start is refused: a running VM keeps running, as in KubeVirt.
import { FEATURE_GATES, featureGateEnabled, type KubeVirtConfiguration } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { Vmi } from "../kinds.js";

export interface Refusal {
  readonly reason: string;
  readonly message: string;
}

export function gatedFeatureRefusal(
  vmi: Frozen<Vmi>,
  configuration: Frozen<KubeVirtConfiguration> | undefined,
): Refusal | undefined {
  const network = networkRefusal(vmi, configuration);
  if (network !== undefined) return network;
  if (featureGateEnabled(configuration, FEATURE_GATES.hostDisk)) return undefined;
  const position = (vmi.spec.volumes ?? []).findIndex((volume) => volume.hostDisk !== undefined);
  if (position < 0) return undefined;
  const volume = vmi.spec.volumes?.[position];
  return {
    reason: "FeatureGateNotEnabled",
    message:
      `spec.volumes[${position}] (${volume?.name ?? ""}): ${FEATURE_GATES.hostDisk} feature gate is not enabled; ` +
      "a cluster admin may add it to spec.configuration.developerConfiguration.featureGates of the KubeVirt CR",
  };
}

/** passtBinding without its gate, or a binding plugin the CR does not register. */
function networkRefusal(
  vmi: Frozen<Vmi>,
  configuration: Frozen<KubeVirtConfiguration> | undefined,
): Refusal | undefined {
  const interfaces = vmi.spec.domain.devices.interfaces ?? [];
  const passt = interfaces.findIndex((iface) => iface.passtBinding !== undefined);
  if (passt >= 0 && !featureGateEnabled(configuration, FEATURE_GATES.passtBinding)) {
    return {
      reason: "FeatureGateNotEnabled",
      message:
        `spec.domain.devices.interfaces[${passt}] (${interfaces[passt]?.name ?? ""}): ${FEATURE_GATES.passtBinding} feature gate is not enabled; ` +
        "a cluster admin may add it to spec.configuration.developerConfiguration.featureGates of the KubeVirt CR",
    };
  }
  const registered = configuration?.network?.binding ?? {};
  const plugin = interfaces.findIndex(
    (iface) => iface.binding !== undefined && !Object.hasOwn(registered, iface.binding.name),
  );
  if (plugin < 0) return undefined;
  return {
    reason: "BindingPluginNotRegistered",
    message: `spec.domain.devices.interfaces[${plugin}] (${interfaces[plugin]?.name ?? ""}): the binding plugin ${interfaces[plugin]?.binding?.name ?? ""} is not registered in the KubeVirt CR's spec.configuration.network.binding`,
  };
}
