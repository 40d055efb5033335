/**
 * Keeps a running VM's QEMU in its launcher pod's cgroups (node/pod-cgroups.ts). It runs right
 * after the start and again on every look at a running VM. A virt-handler killed between libvirt's
 * start and the move, or a QEMU that libvirt moved back, is put right on the next look.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import type { Frozen } from "../../runtime/index.js";
import type { Vmi } from "../kinds.js";
import { launcherProcessIds } from "../network/launcher-process.js";
import {
  type CgroupTarget,
  isInCgroups,
  launcherCgroupTargets,
  moveIntoCgroups,
} from "../node/pod-cgroups.js";

export interface QemuAccountingOptions {
  /** The uid of the VMI's launcher pod on this node, once it exists. */
  readonly launcherPodUid: (vmi: Frozen<Vmi>) => string | undefined;
  /** Where libvirt's QEMU driver writes `<domain>.pid` (/run/libvirt/qemu for qemu:///system). */
  readonly qemuPidDir: string;
  readonly procDir?: string;
  /** The node's cgroup hierarchies' mount point, as this process reaches it. */
  readonly nodeCgroupRoot: () => Promise<string>;
}

export type AccountingOutcome = "moved" | "in-pod" | "no-pod-cgroups" | "not-yet";

export class QemuAccounting {
  readonly #options: QemuAccountingOptions;
  /**
   * Per VMI uid, the QEMU last seen and its pod's cgroups (undefined: none of its own): a look at a
   * running VM then costs one read of /proc/PID/cgroup, not a scan of the node's processes.
   */
  readonly #known = new Map<
    string,
    { readonly qemu: number; readonly targets: CgroupTarget[] | undefined }
  >();

  constructor(options: QemuAccountingOptions) {
    this.#options = options;
  }

  async ensure(vmi: Frozen<Vmi>, domainName: string, log: Logger): Promise<AccountingOutcome> {
    const uid = vmi.metadata?.uid ?? "";
    const podUid = this.#options.launcherPodUid(vmi);
    const qemu = await this.#qemuPid(domainName);
    if (podUid === undefined || qemu === undefined) return "not-yet";
    const procDir = this.#options.procDir ?? "/proc";
    let known = this.#known.get(uid);
    if (known?.qemu !== qemu) {
      const targets = await launcherCgroupTargets({
        launcherPids: await launcherProcessIds(podUid, procDir),
        podUid,
        procDir,
        cgroupRoot: await this.#options.nodeCgroupRoot(),
      });
      known = { qemu, targets };
      this.#known.set(uid, known);
      if (targets === undefined) {
        log.debug({ podUid }, "the launcher pod has no cgroups of its own: QEMU stays in libvirt's");
      }
    }
    if (known.targets === undefined) return "no-pod-cgroups";
    if (await isInCgroups(qemu, known.targets, procDir)) return "in-pod";
    await moveIntoCgroups(qemu, known.targets);
    log.info(
      { qemuPid: qemu, cgroups: known.targets.map((target) => target.dir) },
      "QEMU moved into its launcher pod's cgroups",
    );
    return "moved";
  }

  /** The VMI (by uid) is gone from this node. */
  forget(vmiUid: string): void {
    this.#known.delete(vmiUid);
  }

  async #qemuPid(domainName: string): Promise<number | undefined> {
    const text = await readFile(join(this.#options.qemuPidDir, `${domainName}.pid`), "utf8").catch(
      () => undefined,
    );
    const pid = Number(text?.trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  }
}
