import { Quantity } from "../../runtime/quantity/quantity.js";
import type { KubeVirtConfiguration } from "../kubevirt/configuration.js";

/**
 * The cluster-wide settings KubeVirt's defaulting reads (from the KubeVirt CR's
 * `spec.configuration`), resolved once so that defaulting functions stay pure.
 */
export interface ClusterDefaults {
  /** Default `spec.domain.machine.type`. */
  readonly machineType: string;
  /** Default `spec.domain.cpu.model`. */
  readonly cpuModel: string;
  /**
   * `spec.configuration.cpuRequest`: the CPU request every VMI without dedicated CPUs is given,
   * when the cluster sets one. Unset (KubeVirt's default), a VMI keeps no CPU request of its own
   * and its launcher pod asks for vCPUs ÷ `cpuAllocationRatio`.
   */
  readonly cpuRequest: Quantity | undefined;
  /** `developerConfiguration.cpuAllocationRatio`: vCPUs per requested node CPU (10: 100m a vCPU). */
  readonly cpuAllocationRatio: number;
  /** `developerConfiguration.memoryOvercommit`: guest memory as a percentage of the request. */
  readonly memoryOvercommitPercent: number;
  /** The binding of the interface added for the pod network (`network.defaultNetworkInterface`). */
  readonly defaultNetworkInterface: "bridge" | "masquerade" | "slirp";
  /** Default `spec.architecture`. */
  readonly architecture: string;
  /** Default `spec.evictionStrategy`, when the cluster sets one. */
  readonly evictionStrategy: KubeVirtConfiguration["evictionStrategy"];
}

/** KubeVirt's built-in values (`pkg/virt-config/virt-config.go`, amd64). */
export const KUBEVIRT_DEFAULTS: ClusterDefaults = {
  machineType: "q35",
  cpuModel: "host-model",
  cpuRequest: undefined,
  cpuAllocationRatio: 10,
  memoryOvercommitPercent: 100,
  defaultNetworkInterface: "bridge",
  architecture: "amd64",
  evictionStrategy: undefined,
};

const NETWORK_BINDINGS = ["bridge", "masquerade", "slirp"] as const;

/** The defaults a KubeVirt CR's configuration implies; unset fields keep KubeVirt's values. */
export function clusterDefaultsFrom(configuration: KubeVirtConfiguration | undefined): ClusterDefaults {
  if (configuration === undefined) return KUBEVIRT_DEFAULTS;
  const architecture =
    configuration.architectureConfiguration?.defaultArchitecture ?? KUBEVIRT_DEFAULTS.architecture;
  const archMachine = architectureMachineType(configuration, architecture);
  const binding = configuration.network?.defaultNetworkInterface;
  return {
    machineType: archMachine ?? configuration.machineType ?? KUBEVIRT_DEFAULTS.machineType,
    cpuModel: configuration.cpuModel ?? KUBEVIRT_DEFAULTS.cpuModel,
    cpuRequest:
      configuration.cpuRequest === undefined
        ? KUBEVIRT_DEFAULTS.cpuRequest
        : Quantity.tryParse(configuration.cpuRequest),
    cpuAllocationRatio:
      configuration.developerConfiguration?.cpuAllocationRatio ?? KUBEVIRT_DEFAULTS.cpuAllocationRatio,
    memoryOvercommitPercent:
      configuration.developerConfiguration?.memoryOvercommit ?? KUBEVIRT_DEFAULTS.memoryOvercommitPercent,
    defaultNetworkInterface:
      NETWORK_BINDINGS.find((name) => name === binding) ?? KUBEVIRT_DEFAULTS.defaultNetworkInterface,
    architecture,
    evictionStrategy: configuration.evictionStrategy,
  };
}

function architectureMachineType(
  configuration: KubeVirtConfiguration,
  architecture: string,
): string | undefined {
  const perArch = configuration.architectureConfiguration;
  if (perArch === undefined) return undefined;
  if (architecture === "amd64") return perArch.amd64?.machineType;
  if (architecture === "arm64") return perArch.arm64?.machineType;
  if (architecture === "s390x") return perArch.s390x?.machineType;
  return undefined;
}
