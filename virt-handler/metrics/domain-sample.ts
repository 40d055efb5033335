// One reading of a running domain's counters, for the per-VM metrics: CPU time and memory from
// virDomainGetInfo, and I/O counters per disk and per NIC where the hypervisor counts them.
import type { ObservedDomain } from "../domain/observed-domain.js";

export interface DiskSample {
  readonly drive: string;
  readonly readBytes: number;
  readonly writeBytes: number;
  readonly readRequests: number;
  readonly writeRequests: number;
}

export interface InterfaceSample {
  readonly name: string;
  readonly rxBytes: number;
  readonly txBytes: number;
  readonly rxPackets: number;
  readonly txPackets: number;
}

export interface DomainSample {
  readonly namespace: string;
  readonly name: string;
  readonly cpuSeconds: number;
  /** Memory given to the domain. */
  readonly memoryDomainBytes: number;
  /** Resident memory of its QEMU process, when known. */
  readonly residentBytes: number | undefined;
  readonly disks: readonly DiskSample[];
  readonly interfaces: readonly InterfaceSample[];
}

/** Reads the counters of an observed domain of a VMI; a disk or NIC without counters is left out. */
export function sampleDomain(
  observed: ObservedDomain,
  vmi: { readonly namespace: string; readonly name: string },
  residentBytes: (domainName: string) => number | undefined,
): DomainSample {
  const info = observed.handle.info();
  return {
    ...vmi,
    cpuSeconds: info.cpuTimeNs / 1e9,
    memoryDomainBytes: info.memoryKiB * 1024,
    residentBytes: residentBytes(observed.name),
    disks: diskSamples(observed),
    interfaces: interfaceSamples(observed),
  };
}

function diskSamples(observed: ObservedDomain): DiskSample[] {
  const samples: DiskSample[] = [];
  for (const disk of observed.definition?.devices.disks ?? []) {
    const stats = readOrSkip(() => observed.handle.blockStats(disk.target.dev));
    if (stats === undefined || stats.readBytes < 0 || stats.writeBytes < 0) continue;
    samples.push({
      drive: disk.alias?.startsWith("ua-") ? disk.alias.slice(3) : disk.target.dev,
      readBytes: stats.readBytes,
      writeBytes: stats.writeBytes,
      readRequests: Math.max(0, stats.readRequests),
      writeRequests: Math.max(0, stats.writeRequests),
    });
  }
  return samples;
}

function interfaceSamples(observed: ObservedDomain): InterfaceSample[] {
  const samples: InterfaceSample[] = [];
  for (const nic of observed.definition?.devices.interfaces ?? []) {
    const device = nic.targetDev ?? nic.mac;
    if (device === undefined) continue;
    // QEMU's user-mode NICs have no host device: libvirt has no counters for them.
    const stats = readOrSkip(() => observed.handle.interfaceStats(device));
    if (stats === undefined || stats.rxBytes < 0 || stats.txBytes < 0) continue;
    samples.push({
      name: nic.alias?.startsWith("ua-") ? nic.alias.slice(3) : device,
      rxBytes: stats.rxBytes,
      txBytes: stats.txBytes,
      rxPackets: Math.max(0, stats.rxPackets),
      txPackets: Math.max(0, stats.txPackets),
    });
  }
  return samples;
}

/** Counters a device does not have are an answer ("none"), not an error worth reporting. */
function readOrSkip<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
