import { Quantity, type VirtualMachineInstanceSpec } from "../../api/index.js";

/** The extended resource a node's device plugin offers for /dev/kvm. */
export const KVM_RESOURCE = "devices.kubevirt.io/kvm";

const MIB = 1024n * 1024n;
/** The launcher's waiting process and the fixed part of QEMU's own memory. */
export const FIXED_OVERHEAD_BYTES = 8n * MIB;
/** QEMU's per-vCPU memory (thread stacks, vCPU state). */
export const PER_VCPU_OVERHEAD_BYTES = 2n * MIB;
/** Guest page tables: one byte per 512 of guest memory, as KubeVirt counts them. */
export const PAGE_TABLE_DIVISOR = 512n;
/**
 * What QEMU needs beyond that under TCG (useEmulation), measured on a real kubelet with QEMU in
 * the pod's cgroups: a booted 128 MiB test guest's QEMU had 272 MiB resident, of which 120 MiB
 * were guest memory and 76 MiB TCG's translation cache; the rest is QEMU itself, its ROMs and the
 * kernel it loads. Without this, the pod reserved 139 MiB for a QEMU that used 266 MiB.
 */
export const TCG_OVERHEAD_BYTES = 144n * MIB;

export interface LauncherResources {
  requests: Record<string, string>;
  limits?: Record<string, string>;
}

/**
 * The launcher pod's resources, from a VMI spec with KubeVirt's defaults applied:
 *
 *   memory request = VMI memory request + overhead
 *   overhead       = 8 MiB + 2 MiB × vCPUs + guest memory / 512, rounded up to a MiB, and 144 MiB
 *                    more with emulation (TCG's translation cache and QEMU's own, measured)
 *   cpu request    = the VMI's; without one, vCPUs ÷ cpuAllocationRatio (KubeVirt's: 100m a vCPU
 *                    at the default ratio of 10), rounded up to a millicore
 *   limits         = only those the VMI sets (memory limit + the same overhead)
 *   devices.kubevirt.io/kvm: 1 in requests and limits, unless emulation is allowed
 *
 * KubeVirt reserves ~220 MiB more per VM for the processes in its launcher; ours only waits,
 * and QEMU runs under the node's libvirt, so the reservation is what QEMU itself needs.
 */
export interface LauncherResourceOptions {
  /** `developerConfiguration.useEmulation`: no /dev/kvm is asked for. */
  readonly useEmulation: boolean;
  /** `developerConfiguration.cpuAllocationRatio`: vCPUs per requested node CPU. */
  readonly cpuAllocationRatio: number;
}

export function launcherResources(
  spec: VirtualMachineInstanceSpec,
  { useEmulation, cpuAllocationRatio }: LauncherResourceOptions,
): LauncherResources {
  const resources = spec.domain.resources ?? {};
  const guestBytes = bytesOf(spec.domain.memory?.guest ?? resources.requests?.memory);
  const overhead = memoryOverheadBytes(guestBytes, vcpusOf(spec)) + (useEmulation ? TCG_OVERHEAD_BYTES : 0n);
  const requests: Record<string, string> = {};
  const cpu = resources.requests?.cpu;
  requests.cpu = cpu === undefined ? allocatedCpu(vcpusOf(spec), cpuAllocationRatio) : String(cpu);
  const memoryRequest = resources.requests?.memory ?? spec.domain.memory?.guest;
  requests.memory = Quantity.fromInteger(bytesOf(memoryRequest) + overhead).text;
  const limits: Record<string, string> = {};
  if (resources.limits?.cpu !== undefined) limits.cpu = String(resources.limits.cpu);
  if (resources.limits?.memory !== undefined)
    limits.memory = Quantity.fromInteger(bytesOf(resources.limits.memory) + overhead).text;
  if (!useEmulation) {
    requests[KVM_RESOURCE] = "1";
    limits[KVM_RESOURCE] = "1";
  }
  return Object.keys(limits).length > 0 ? { requests, limits } : { requests };
}

export function memoryOverheadBytes(guestBytes: bigint, vcpus: number): bigint {
  const bytes =
    FIXED_OVERHEAD_BYTES + PER_VCPU_OVERHEAD_BYTES * BigInt(vcpus) + ceilDiv(guestBytes, PAGE_TABLE_DIVISOR);
  return ceilDiv(bytes, MIB) * MIB;
}

export function vcpusOf(spec: VirtualMachineInstanceSpec): number {
  const cpu = spec.domain.cpu;
  return Math.max(1, (cpu?.sockets ?? 1) * (cpu?.cores ?? 1) * (cpu?.threads ?? 1));
}

/** vCPUs ÷ ratio in millicores, rounded up, in a quantity's canonical text (`100m`, `2`, `334m`). */
export function allocatedCpu(vcpus: number, cpuAllocationRatio: number): string {
  const ratio = Math.max(1, Math.floor(cpuAllocationRatio));
  const millicores = Math.ceil((vcpus * 1000) / ratio);
  return millicores % 1000 === 0 ? String(millicores / 1000) : `${millicores}m`;
}

function bytesOf(value: string | number | undefined): bigint {
  return value === undefined ? 0n : (Quantity.tryParse(value)?.valueBigInt() ?? 0n);
}

function ceilDiv(value: bigint, divisor: bigint): bigint {
  return (value + divisor - 1n) / divisor;
}
