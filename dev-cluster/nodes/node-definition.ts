import type { INodeAddress } from "kubernetes-models/v1/NodeAddress";
import type { INodeSystemInfo } from "kubernetes-models/v1/NodeSystemInfo";
import {
  SIMULATED_NODE_ANNOTATION,
  SIMULATED_NODE_ANNOTATION_VALUE,
  SIMULATED_NODE_LABEL,
  SIMULATED_NODE_LABEL_VALUE,
  type Taint,
} from "./kinds.js";
import type { MachineFacts } from "./machine.js";

export const KUBELET_VERSION = "v1.32.0";
export const MAX_PODS = 110;
/** kubelet's default hard eviction threshold memory.available<100Mi comes off allocatable memory. */
const EVICTION_MEMORY_BYTES = 100 * 1024 * 1024;
/** ...and nodefs.available<10% off allocatable ephemeral storage. */
const EVICTION_STORAGE_FRACTION = 0.1;

/** Everything this agent says about one node; the parts it owns are kept so on every heartbeat. */
export interface NodeDefinition {
  readonly name: string;
  readonly simulated: boolean;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Set when the node is created only, as kubelet's --register-with-taints. */
  readonly taints: readonly Taint[];
  readonly capacity: Readonly<Record<string, string>>;
  readonly allocatable: Readonly<Record<string, string>>;
  readonly addresses: readonly INodeAddress[];
  readonly nodeInfo: INodeSystemInfo;
}

export interface LocalNodeOptions {
  /** Default: the machine's hostname. */
  name?: string;
  /** Added to kubelet's default labels. */
  labels?: Record<string, string>;
  /** Default: the machine's first non-loopback IPv4 address. */
  internalIP?: string;
  taints?: Taint[];
}

export interface SimulatedNodesOptions {
  count: number;
  /** Nodes are named PREFIX0, PREFIX1, ... (default "sim-node-"). */
  namePrefix?: string;
  /** Default kwok's: cpu 32, memory 256Gi, pods 110, ephemeral-storage 1Ti. Allocatable is the same. */
  capacity?: Record<string, string>;
  labels?: Record<string, string>;
  taints?: Taint[];
}

const kibibytes = (bytes: number): string => `${Math.floor(bytes / 1024)}Ki`;

/** kubelet's default labels (nodeutil / kubelet_node_status.go). */
function defaultLabels(name: string, architecture: string): Record<string, string> {
  return {
    "beta.kubernetes.io/arch": architecture,
    "beta.kubernetes.io/os": "linux",
    "kubernetes.io/arch": architecture,
    "kubernetes.io/hostname": name,
    "kubernetes.io/os": "linux",
  };
}

function systemInfo(facts: MachineFacts, containerRuntimeVersion: string): INodeSystemInfo {
  return {
    architecture: facts.architecture,
    bootID: facts.bootID,
    containerRuntimeVersion,
    kernelVersion: facts.kernelVersion,
    kubeProxyVersion: "",
    kubeletVersion: KUBELET_VERSION,
    machineID: facts.machineID,
    operatingSystem: "linux",
    osImage: facts.osImage,
    systemUUID: "",
  };
}

/** The machine's own node, sized from the machine. */
export function localNodeDefinition(facts: MachineFacts, options: LocalNodeOptions = {}): NodeDefinition {
  const name = options.name ?? facts.hostname;
  const shared = {
    cpu: String(facts.cpuCores),
    pods: String(MAX_PODS),
    "hugepages-1Gi": "0",
    "hugepages-2Mi": "0",
  };
  return {
    name,
    simulated: false,
    labels: { ...defaultLabels(name, facts.architecture), ...options.labels },
    annotations: {},
    taints: options.taints ?? [],
    capacity: {
      ...shared,
      memory: kibibytes(facts.memoryBytes),
      "ephemeral-storage": kibibytes(facts.ephemeralStorageBytes),
    },
    allocatable: {
      ...shared,
      memory: kibibytes(Math.max(0, facts.memoryBytes - EVICTION_MEMORY_BYTES)),
      "ephemeral-storage": String(Math.floor(facts.ephemeralStorageBytes * (1 - EVICTION_STORAGE_FRACTION))),
    },
    addresses: [
      { type: "InternalIP", address: options.internalIP ?? facts.internalIP },
      { type: "Hostname", address: name },
    ],
    nodeInfo: systemInfo(facts, "dev-cluster://0.1.0"),
  };
}

export const DEFAULT_SIMULATED_CAPACITY: Readonly<Record<string, string>> = {
  cpu: "32",
  memory: "256Gi",
  pods: String(MAX_PODS),
  "ephemeral-storage": "1Ti",
};

/** kwok-style nodes: any capacity, no machine behind them; they share the machine's address. */
export function simulatedNodeDefinitions(
  facts: MachineFacts,
  options: SimulatedNodesOptions,
): NodeDefinition[] {
  const prefix = options.namePrefix ?? "sim-node-";
  const capacity = { ...DEFAULT_SIMULATED_CAPACITY, ...options.capacity };
  return Array.from({ length: options.count }, (_, index) => {
    const name = `${prefix}${index}`;
    return {
      name,
      simulated: true,
      labels: {
        ...defaultLabels(name, facts.architecture),
        [SIMULATED_NODE_LABEL]: SIMULATED_NODE_LABEL_VALUE,
        ...options.labels,
      },
      annotations: { [SIMULATED_NODE_ANNOTATION]: SIMULATED_NODE_ANNOTATION_VALUE },
      taints: options.taints ?? [],
      capacity,
      allocatable: capacity,
      addresses: [
        { type: "InternalIP", address: facts.internalIP },
        { type: "Hostname", address: name },
      ],
      nodeInfo: { ...systemInfo(facts, "simulated://0.1.0"), bootID: "", machineID: "" },
    };
  });
}
