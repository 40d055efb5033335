// Reads the counters of every Running VMI of this node (for one scrape of /metrics): libvirt's,
// and those of each pod interface's tap in its launcher pod.
import type { Logger } from "pino";
import { launcherServedInterface } from "../../api/index.js";
import type { Connection } from "../../libvirt/index.js";
import type { Frozen } from "../../runtime/index.js";
import { observeDomainByName } from "../domain/observed-domain.js";
import type { VmiDomainFactory } from "../domain/vmi-domain-factory.js";
import type { Vmi } from "../kinds.js";
import { type DomainSample, type ReadElsewhere, sampleDomain } from "./domain-sample.js";
import type { PodTapCounters } from "./pod-tap-counters.js";
import { noResidentBytes, qemuResidentBytes } from "./qemu-resident.js";

export interface RunningVmiSources {
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
  readonly libvirtUri: string;
  readonly podTaps: PodTapCounters;
  readonly log: Logger;
}

export async function sampleRunningVmis(
  vmis: readonly Frozen<Vmi>[],
  sources: RunningVmiSources,
): Promise<DomainSample[]> {
  const { connection, factory, libvirtUri, podTaps } = sources;
  const residentBytes = libvirtUri.startsWith("qemu:///system")
    ? qemuResidentBytes("/run/libvirt/qemu")
    : noResidentBytes;
  const running = vmis.filter((vmi) => vmi.status?.phase === "Running");
  podTaps.retainOnly(running);
  const samples: DomainSample[] = [];
  if (!connection.connected) return samples;
  for (const vmi of running) {
    const who = { namespace: vmi.metadata?.namespace ?? "", name: vmi.metadata?.name ?? "" };
    // Read before the domain is looked up, so no libvirt handle is held across the wait.
    const inPod = await podInterfaceOf(vmi, who, sources);
    const observed = observeDomainByName(connection, factory.domainName(vmi), factory);
    if (observed === undefined) continue;
    try {
      if (observed.identity?.uid !== vmi.metadata?.uid) continue;
      samples.push(sampleDomain(observed, who, residentBytes, inPod === undefined ? [] : [inPod]));
    } catch {
      // the domain stopped while we read it: it has no counters to report any more
    } finally {
      observed.handle.free();
    }
  }
  return samples;
}

/**
 * The VMI's pod interface (masquerade or bridge), if it has one, with its tap's counters: a VM
 * whose pod cannot be read is logged and reported without them, and the scrape goes on.
 */
async function podInterfaceOf(
  vmi: Frozen<Vmi>,
  who: { namespace: string; name: string },
  { podTaps, log }: RunningVmiSources,
): Promise<ReadElsewhere | undefined> {
  const name = launcherServedInterface(vmi.spec);
  if (name === undefined) return undefined;
  try {
    return { name, counters: await podTaps.read(vmi) };
  } catch (error) {
    log.warn({ ...who, err: error }, "cannot read the VMI's pod interface counters: left out of this scrape");
    return { name, counters: undefined };
  }
}
