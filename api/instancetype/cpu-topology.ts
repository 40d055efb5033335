import type { PreferredCpuTopology, SpreadAcross, VirtualMachinePreferenceSpec } from "./preference-spec.js";

/**
 * The guest CPU topology an instancetype's vCPUs get under a preference (KubeVirt's
 * `applyGuestCPUTopology`): sockets unless the preference says otherwise; `spread` puts
 * `ratio` cores (default 2) in each socket, or across cores and threads, or both with 2 threads.
 */
export interface CpuTopology {
  sockets: number;
  cores: number;
  threads: number;
}

const DEFAULT_SPREAD_RATIO = 2;
const THREADS_PER_CORE = 2;

export function preferredTopologyOf(
  preference: VirtualMachinePreferenceSpec | undefined,
): PreferredCpuTopology {
  return preference?.cpu?.preferredCPUTopology ?? "sockets";
}

export function spreadOptionsOf(preference: VirtualMachinePreferenceSpec | undefined): {
  ratio: number;
  across: SpreadAcross;
} {
  const options = preference?.cpu?.spreadOptions;
  // preferSpreadSocketToCoreRatio is the deprecated spelling of spreadOptions.ratio.
  const ratio = options?.ratio || preference?.preferSpreadSocketToCoreRatio || DEFAULT_SPREAD_RATIO;
  return { ratio, across: options?.across ?? "SocketsCores" };
}

export function guestCpuTopology(
  vCpus: number,
  preference: VirtualMachinePreferenceSpec | undefined,
): CpuTopology {
  const topology = { sockets: 1, cores: 1, threads: 1 };
  if (vCpus === 1) return topology;
  switch (preferredTopologyOf(preference)) {
    case "cores":
    case "preferCores":
      return { ...topology, cores: vCpus };
    case "threads":
    case "preferThreads":
      return { ...topology, threads: vCpus };
    case "spread":
    case "preferSpread":
      return spreadTopology(vCpus, preference);
    default:
      return { ...topology, sockets: vCpus };
  }
}

function spreadTopology(vCpus: number, preference: VirtualMachinePreferenceSpec | undefined): CpuTopology {
  const { ratio, across } = spreadOptionsOf(preference);
  switch (across) {
    case "CoresThreads":
      return { sockets: 1, cores: Math.floor(vCpus / ratio), threads: ratio };
    case "SocketsCoresThreads":
      return {
        sockets: Math.floor(vCpus / THREADS_PER_CORE / ratio),
        cores: ratio,
        threads: THREADS_PER_CORE,
      };
    default:
      return { sockets: Math.floor(vCpus / ratio), cores: ratio, threads: 1 };
  }
}

/**
 * KubeVirt's CheckSpreadCPUTopology: a spread must divide the vCPUs evenly, and CoresThreads only
 * takes a ratio of 2. The message when it does not; undefined when it does (or there is no spread).
 */
export function spreadTopologyProblem(
  vCpus: number,
  preference: VirtualMachinePreferenceSpec | undefined,
): string | undefined {
  const topology = preferredTopologyOf(preference);
  if (topology !== "spread" && topology !== "preferSpread") return undefined;
  const { ratio, across } = spreadOptionsOf(preference);
  if (across === "CoresThreads" && ratio !== 2) {
    return "only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads";
  }
  const divisor = across === "SocketsCoresThreads" ? ratio * THREADS_PER_CORE : ratio;
  if (vCpus % divisor !== 0) {
    return `Instancetype CPU Guest is not divisible by PreferSpreadSocketToCoreRatio (${divisor})`;
  }
  return undefined;
}
