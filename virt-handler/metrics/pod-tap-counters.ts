// The counters of a VMI's pod interface (masquerade or bridge). Its tap leaves libvirtd's network
// namespace for the launcher pod's right after the start (network/pod-network-setup.ts), so
// libvirt, which reads /proc/net/dev in its own namespace, no longer sees it: the tap's counters
// are read from /proc/<pid>/net/dev of a launcher process instead, the same file in the pod's
// namespace, with no command run and no namespace entered on a scrape. libvirt is never asked for
// this NIC, not even before the tap moves: for `type='ethernet'` it reports the host's side of the
// tap, not the guest's (KubeVirt's receive and transmit came out swapped so, kubevirt/kubevirt#9129).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Frozen } from "../../runtime/index.js";
import type { Pod, Vmi } from "../kinds.js";
import { findLauncherNetns, isLauncherProcess } from "../network/launcher-process.js";
import { POD_TAP } from "../network/masquerade-plan.js";
import type { NicCounters } from "./domain-sample.js";
import { guestCountersOfTap, parseNetDev } from "./net-dev.js";

export interface PodTapCountersOptions {
  /** The VMI's launcher pod on this node (the pod informer's view), if it is known. */
  readonly launcherPod: (vmi: Frozen<Vmi>) => Frozen<Pod> | undefined;
  /** Where a launcher's processes are found (default /proc). */
  readonly procDir?: string;
}

export class PodTapCounters {
  readonly #launcherPod: PodTapCountersOptions["launcherPod"];
  readonly #procDir: string;
  /** Launcher pod uid → a pid of it, so that a scrape does not look through every process. */
  readonly #pids = new Map<string, number>();

  constructor(options: PodTapCountersOptions) {
    this.#launcherPod = options.launcherPod;
    this.#procDir = options.procDir ?? "/proc";
  }

  /**
   * The guest's counters of the VMI's pod interface, read from its tap in the launcher pod;
   * undefined while there are none to read (no launcher process yet, or the tap not moved into
   * the pod yet: the VM has just started). Rejects when the pod's counters cannot be read.
   */
  async read(vmi: Frozen<Vmi>): Promise<NicCounters | undefined> {
    const podUid = this.#launcherPod(vmi)?.metadata?.uid;
    if (podUid === undefined) return undefined;
    const netDev = await this.#podNetDev(podUid);
    const tap = netDev === undefined ? undefined : parseNetDev(netDev).get(POD_TAP);
    return tap === undefined ? undefined : guestCountersOfTap(tap);
  }

  /** Forgets the launchers of the VMIs not in `vmis` (gone from this node). */
  retainOnly(vmis: readonly Frozen<Vmi>[]): void {
    const kept = new Set(vmis.map((vmi) => this.#launcherPod(vmi)?.metadata?.uid));
    for (const podUid of this.#pids.keys()) if (!kept.has(podUid)) this.#pids.delete(podUid);
  }

  /** /proc/net/dev as the launcher pod's namespace has it; undefined while no process of it runs. */
  async #podNetDev(podUid: string): Promise<string | undefined> {
    const cached = this.#pids.get(podUid);
    if (cached !== undefined) {
      const text = await readFile(this.#netDevPath(cached), "utf8").catch(() => undefined);
      // Checked after the read: what was read came from the launcher if it still is one now.
      if (text !== undefined && (await isLauncherProcess(cached, podUid, this.#procDir))) return text;
      this.#pids.delete(podUid);
    }
    const found = await findLauncherNetns(podUid, this.#procDir);
    if (found === undefined) return undefined;
    const text = await readFile(this.#netDevPath(found.pid), "utf8").catch((error: unknown) => {
      throw new Error(`cannot read the network counters of launcher pod ${podUid}`, { cause: error });
    });
    this.#pids.set(podUid, found.pid);
    return text;
  }

  #netDevPath(pid: number): string {
    return join(this.#procDir, String(pid), "net", "dev");
  }
}
