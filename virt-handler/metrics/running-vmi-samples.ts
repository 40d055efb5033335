// Reads the counters of every Running VMI of this node from libvirt (for one scrape of /metrics).
import type { Connection } from "../../libvirt/index.js";
import type { Frozen } from "../../runtime/index.js";
import { observeDomainByName } from "../domain/observed-domain.js";
import type { VmiDomainFactory } from "../domain/vmi-domain-factory.js";
import type { Vmi } from "../kinds.js";
import { type DomainSample, sampleDomain } from "./domain-sample.js";
import { noResidentBytes, qemuResidentBytes } from "./qemu-resident.js";

export function sampleRunningVmis(
  vmis: readonly Frozen<Vmi>[],
  connection: Connection,
  factory: VmiDomainFactory,
  libvirtUri: string,
): DomainSample[] {
  const residentBytes = libvirtUri.startsWith("qemu:///system")
    ? qemuResidentBytes("/run/libvirt/qemu")
    : noResidentBytes;
  const samples: DomainSample[] = [];
  if (!connection.connected) return samples;
  for (const vmi of vmis) {
    if (vmi.status?.phase !== "Running") continue;
    const observed = observeDomainByName(connection, factory.domainName(vmi), factory);
    if (observed === undefined) continue;
    try {
      if (observed.identity?.uid !== vmi.metadata?.uid) continue;
      const who = { namespace: vmi.metadata?.namespace ?? "", name: vmi.metadata?.name ?? "" };
      samples.push(sampleDomain(observed, who, residentBytes));
    } catch {
      // the domain stopped while we read it: it has no counters to report any more
    } finally {
      observed.handle.free();
    }
  }
  return samples;
}
