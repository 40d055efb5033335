// Compute: vCPUs and their topology, the CPU model, guest memory, the machine type and the hypervisor.
import { Quantity } from "../../api/index.js";
import type { Cpu, CpuFeature } from "../../libvirt/domain-xml/index.js";
import type { Configurator, ConversionInput } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

const HOST_MODEL = "host-model";
const HOST_PASSTHROUGH = "host-passthrough";
const CPU_FEATURE_POLICIES = ["force", "require", "optional", "disable", "forbid"] as const;

/** KubeVirt's architecture names → libvirt's. */
const ARCHITECTURES: Record<string, string> = { amd64: "x86_64", arm64: "aarch64", s390x: "s390x" };

/** Sockets × cores × threads as the VMI says, or (undefaulted VMI) one socket per requested CPU. */
export function cpuTopology(spec: ConversionInput["spec"]): {
  sockets: number;
  cores: number;
  threads: number;
} {
  const cpu = spec.domain.cpu ?? {};
  if (cpu.sockets || cpu.cores || cpu.threads) {
    return { sockets: cpu.sockets || 1, cores: cpu.cores || 1, threads: cpu.threads || 1 };
  }
  const resources = spec.domain.resources;
  const cpus = Quantity.tryParse(resources?.limits?.cpu ?? resources?.requests?.cpu)?.value() ?? 1;
  return { sockets: Math.max(1, cpus), cores: 1, threads: 1 };
}

function cpuFeatures(input: ConversionInput): CpuFeature[] | undefined {
  const features = input.spec.domain.cpu?.features;
  if (features === undefined || features.length === 0) return undefined;
  return features.map(({ name, policy }) => {
    const chosen = policy || "require";
    const known = CPU_FEATURE_POLICIES.find((candidate) => candidate === chosen);
    if (known === undefined)
      throw new VmiConversionError("InvalidSpec", `cpu feature ${name}: unknown policy ${chosen}`);
    return { name, policy: known };
  });
}

/**
 * The `<cpu>` element. Under emulation (TCG) host-model and host-passthrough describe a CPU TCG cannot
 * give, so the domain takes QEMU's default model for TCG (qemu64); a named model is kept.
 */
function cpuElement(input: ConversionInput): Cpu {
  const topology = cpuTopology(input.spec);
  const model = input.spec.domain.cpu?.model || HOST_MODEL;
  const features = cpuFeatures(input);
  const cpu: Cpu = { topology };
  if (model === HOST_MODEL || model === HOST_PASSTHROUGH) {
    if (!input.options.emulation) cpu.mode = model;
  } else {
    cpu.mode = "custom";
    cpu.match = "exact";
    cpu.model = { name: model, fallback: "allow" };
  }
  if (features !== undefined) cpu.features = features;
  return cpu;
}

/** Guest memory in bytes: memory.guest, else the memory request, else the limit (as KubeVirt defaults it). */
export function guestMemoryBytes(spec: ConversionInput["spec"]): number {
  const domain = spec.domain;
  const text = domain.memory?.guest ?? domain.resources?.requests?.memory ?? domain.resources?.limits?.memory;
  if (text === undefined) {
    throw new VmiConversionError(
      "InvalidSpec",
      "no guest memory: set domain.memory.guest or resources.requests.memory",
    );
  }
  const quantity = Quantity.tryParse(text);
  if (quantity === undefined || quantity.sign() <= 0) {
    throw new VmiConversionError("InvalidSpec", `guest memory ${String(text)} is not a positive quantity`);
  }
  return quantity.value();
}

export const configureCompute: Configurator = (domain, input) => {
  const { spec, options } = input;
  domain.type = options.emulation ? "qemu" : "kvm";
  const cpu = cpuElement(input);
  const topology = cpu.topology ?? { sockets: 1, cores: 1, threads: 1 };
  domain.vcpu = { count: topology.sockets * topology.cores * topology.threads, placement: "static" };
  domain.cpu = cpu;
  domain.memory = { value: guestMemoryBytes(spec), unit: "b" };
  domain.os.machine = spec.domain.machine?.type || "q35";
  const arch = ARCHITECTURES[spec.architecture || "amd64"];
  if (arch === undefined)
    throw new VmiConversionError("InvalidSpec", `unknown architecture ${spec.architecture}`);
  domain.os.arch = arch;
};
