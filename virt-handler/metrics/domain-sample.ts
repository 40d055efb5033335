// One reading of a running domain's counters, for the per-VM metrics: CPU time and memory from
// virDomainGetInfo, and I/O counters per disk and per NIC where the hypervisor counts them (a pod
// interface's tap, which lives in the launcher pod, is read there instead: pod-tap-counters.ts).
import type { ObservedDomain } from "../domain/observed-domain.js";

export interface DiskSample {
  readonly drive: string;
  readonly readBytes: number;
  readonly writeBytes: number;
  readonly readRequests: number;
  readonly writeRequests: number;
}

/** A NIC's counters from the guest's side (rx: what reached the guest); undefined: not counted. */
export interface NicCounters {
  readonly rxBytes: number;
  readonly txBytes: number;
  readonly rxPackets: number | undefined;
  readonly txPackets: number | undefined;
  readonly rxErrors: number | undefined;
  readonly txErrors: number | undefined;
  readonly rxDrops: number | undefined;
  readonly txDrops: number | undefined;
}

export interface InterfaceSample extends NicCounters {
  /** The VMI's name for the interface (spec.domain.devices.interfaces[].name). */
  readonly name: string;
}

/**
 * A NIC whose counters are read elsewhere than from libvirt (the pod interface's tap, in the pod);
 * undefined counters: none to report in this scrape (libvirt is not asked instead).
 */
export interface ReadElsewhere {
  readonly name: string;
  readonly counters: NicCounters | undefined;
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

/**
 * Reads the counters of an observed domain of a VMI; a disk or NIC without counters is left out.
 * The `readElsewhere` NICs are taken as they are, not asked of libvirt.
 */
export function sampleDomain(
  observed: ObservedDomain,
  vmi: { readonly namespace: string; readonly name: string },
  residentBytes: (domainName: string) => number | undefined,
  readElsewhere: readonly ReadElsewhere[] = [],
): DomainSample {
  const info = observed.handle.info();
  return {
    ...vmi,
    cpuSeconds: info.cpuTimeNs / 1e9,
    memoryDomainBytes: info.memoryKiB * 1024,
    residentBytes: residentBytes(observed.name),
    disks: diskSamples(observed),
    interfaces: interfaceSamples(observed, readElsewhere),
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

function interfaceSamples(
  observed: ObservedDomain,
  readElsewhere: readonly ReadElsewhere[],
): InterfaceSample[] {
  const samples: InterfaceSample[] = [];
  for (const nic of observed.definition?.devices.interfaces ?? []) {
    const device = nic.targetDev ?? nic.mac;
    const name = nic.alias?.startsWith("ua-") ? nic.alias.slice(3) : device;
    if (name === undefined || device === undefined) continue;
    const elsewhere = readElsewhere.find((candidate) => candidate.name === name);
    if (elsewhere !== undefined) {
      if (elsewhere.counters !== undefined) samples.push({ name, ...elsewhere.counters });
      continue;
    }
    // QEMU's user-mode NICs have no host device: libvirt has no counters for them.
    const stats = readOrSkip(() => observed.handle.interfaceStats(device));
    if (stats === undefined || stats.rxBytes < 0 || stats.txBytes < 0) continue;
    samples.push({
      name,
      rxBytes: stats.rxBytes,
      txBytes: stats.txBytes,
      rxPackets: counted(stats.rxPackets),
      txPackets: counted(stats.txPackets),
      rxErrors: counted(stats.rxErrors),
      txErrors: counted(stats.txErrors),
      rxDrops: counted(stats.rxDrops),
      txDrops: counted(stats.txDrops),
    });
  }
  return samples;
}

/** libvirt says -1 for what the hypervisor does not count. */
function counted(value: number): number | undefined {
  return value < 0 ? undefined : value;
}

/** Counters a device does not have are an answer ("none"), not an error worth reporting. */
function readOrSkip<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
