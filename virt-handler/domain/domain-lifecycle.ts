// The libvirt side of a VM's life: define and start it, and remove it with its files.
import { join } from "node:path";
import type { Logger } from "pino";
import { domainToXml } from "../../libvirt/domain-xml/index.js";
import {
  type Connection,
  type Domain,
  DomainState,
  ErrorCode,
  LibvirtError,
  ModificationImpact,
  StartFlags,
  UndefineFlags,
} from "../../libvirt/index.js";
import { type Frozen, StepTrace } from "../../runtime/index.js";
import type { Vmi } from "../kinds.js";
import type { PodNetworks } from "../network/pod-networks.js";
import type { LauncherPodVolumes } from "../storage/index.js";
import { STARTING_CPU_SHARES } from "./cpu-weight.js";
import { withHandlerTag } from "./domain-tag.js";
import type { HotplugDisks } from "./hotplug-disks.js";
import type { ObservedDomain } from "./observed-domain.js";
import type { QemuAccounting } from "./qemu-accounting.js";
import { VMI_UID_LENGTH } from "./socket-paths.js";
import type { VmiDomainFactory } from "./vmi-domain-factory.js";

export interface DomainLifecycleOptions {
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
  readonly nodeName: string;
  /** Per-VM directories live here, one per VMI uid. */
  readonly stateDir: string;
  /** The launcher pod volumes of a VMI (vmi/launcher-pod-volumes.ts); none: no Secret can be read. */
  readonly podVolumes?: (vmi: Frozen<Vmi>) => LauncherPodVolumes;
  /** The VM's side of the pod network (network/pod-networks.ts). */
  readonly podNetworks: PodNetworks;
  /**
   * The VM's CPU weight once it runs (cpu-weight.ts: its launcher pod's, as cpu.shares); none:
   * libvirt's default weight, boosted during the start all the same.
   */
  readonly runningCpuShares?: (vmi: Frozen<Vmi>) => number | undefined;
  /** Hotplugged claim disks of running VMs; none: no hotplug (tests of other parts). */
  readonly hotplug?: HotplugDisks;
  /** Puts QEMU into its launcher pod's cgroups (qemu-accounting.ts); none: QEMU stays in libvirt's. */
  readonly accounting?: QemuAccounting;
}

/** libvirt's weight of a domain without `<cputune><shares>`. */
const DEFAULT_CPU_SHARES = 1024;

const VMI_UID = new RegExp(`^[A-Za-z0-9-]{1,${VMI_UID_LENGTH}}$`);

export class DomainLifecycle {
  readonly #options: DomainLifecycleOptions;

  constructor(options: DomainLifecycleOptions) {
    this.#options = options;
  }

  vmDir(uid: string): string {
    // At most a UUID's length: the state directory was checked to fit sockets for that.
    if (!VMI_UID.test(uid)) throw new Error(`"${uid}" is not a VMI uid`);
    return join(this.#options.stateDir, uid);
  }

  /**
   * Prepares the VM's files, defines its domain (tagged for this node) and starts it. Its steps,
   * and each program they ran, are logged with their times: where a VM's start spends its time.
   */
  async defineAndStart(vmi: Vmi, emulation: boolean, log: Logger): Promise<void> {
    const { factory, connection, nodeName, podNetworks } = this.#options;
    const trace = new StepTrace();
    const vmDir = this.vmDir(vmi.metadata?.uid ?? "");
    const podVolumes = this.#options.podVolumes?.(vmi);
    const built = await trace.step("volumes", () => factory.build(vmi, { vmDir, emulation, podVolumes }));
    let domain: Domain;
    try {
      const definition = withHandlerTag(built.definition, nodeName);
      if (this.#weighs()) definition.cputune = { ...definition.cputune, shares: STARTING_CPU_SHARES };
      const override = await trace.step("network-prepare", () => podNetworks.beforeStart(vmi, vmDir));
      for (const nic of definition.devices.interfaces ?? []) {
        if (override !== undefined && nic.alias === `ua-${override.interfaceName}`) nic.mac = override.mac;
      }
      domain = await trace.step("define", () => connection.defineDomain(domainToXml(definition)));
      try {
        // libvirt keeps its own copies of the files for QEMU: ours are closed right after.
        for (const [group, file] of built.fdGroups) domain.associateFds(group, [file.fd]);
        await trace.step("start", () => this.start(domain, vmi));
      } catch (error) {
        domain.free();
        throw error;
      }
    } finally {
      await built.release();
    }
    const definitionName = domain.name;
    try {
      await trace.step("network-attach", () => podNetworks.afterStart(vmi, vmDir));
      await trace.step("qemu-cgroups", () => this.ensureAccounting(vmi, definitionName, log));
      if (this.#weighs()) await trace.step("cpu-weight", async () => this.#weigh(domain, vmi));
      log.info(
        { domain: definitionName, emulation, startTrace: trace.record() },
        "domain defined and started",
      );
    } finally {
      domain.free();
    }
  }

  /**
   * Gives a running domain its CPU weight, when its live definition shows another (the start's
   * boost left by a virt-handler killed right after the start, or a pod not seen then).
   */
  ensureCpuWeight(observed: ObservedDomain, vmi: Frozen<Vmi>, log: Logger): void {
    if (observed.definition === undefined || !this.#weighs()) return;
    const wanted = this.#options.runningCpuShares?.(vmi);
    const current = observed.definition.cputune?.shares;
    // Without its pod in view, only a start's boost left behind is undone.
    if (wanted === undefined ? current !== STARTING_CPU_SHARES : current === wanted) return;
    this.#weigh(observed.handle, vmi);
    log.info(
      { domain: observed.name, cpuShares: wanted ?? DEFAULT_CPU_SHARES },
      "the domain's CPU weight set",
    );
  }

  /**
   * QEMU in its launcher pod's cgroups. A failure does not stop the VM: it is logged and tried
   * again on the next look.
   */
  async ensureAccounting(vmi: Frozen<Vmi>, domainName: string, log: Logger): Promise<void> {
    const accounting = this.#options.accounting;
    if (accounting === undefined) return;
    try {
      await accounting.ensure(vmi, domainName, log);
    } catch (error) {
      log.warn(
        { err: error, domain: domainName },
        "QEMU is not in its launcher pod's cgroups; retried on the next look",
      );
    }
  }

  /** libvirt's test driver has no cgroups to weigh a domain in (nor cpu_shares). */
  #weighs(): boolean {
    return !this.#options.connection.requestedUri.startsWith("test:");
  }

  #weigh(domain: Domain, vmi: Frozen<Vmi>): void {
    const shares = this.#options.runningCpuShares?.(vmi) ?? DEFAULT_CPU_SHARES;
    domain.setCpuShares(shares, ModificationImpact.Live | ModificationImpact.Config);
  }

  /**
   * Attaches the hotplugged disks the VMI's spec added and detaches those it dropped (hotplug-disks.ts).
   * True when the domain changed (its live definition must be read again).
   */
  async syncHotplug(vmi: Frozen<Vmi>, observed: ObservedDomain, log: Logger): Promise<boolean> {
    return (await this.#options.hotplug?.sync(vmi, observed, log)) ?? false;
  }

  /** Finishes a running VM's pod network when a pass was cut short (virt-handler killed right after the start). */
  async ensureNetwork(vmi: Frozen<Vmi>, log: Logger): Promise<void> {
    const { podNetworks } = this.#options;
    if (!podNetworks.needsAttach(vmi)) return;
    await podNetworks.afterStart(vmi, this.vmDir(vmi.metadata?.uid ?? ""));
    log.info("the VM's pod network finished");
  }

  /** Starts a domain that is defined but not running (paused, when the VMI's startStrategy says so). */
  async start(domain: Domain, vmi: Frozen<Vmi>): Promise<void> {
    await domain.start(vmi.spec.startStrategy === "Paused" ? StartFlags.Paused : StartFlags.None);
  }

  /** Stops QEMU at once; a domain that stopped meanwhile is fine. */
  async destroy(domain: Domain): Promise<void> {
    await ignoreNotRunning(domain.destroy());
  }

  /**
   * Removes a domain and its VM's files: QEMU stopped (if it still runs), files removed, then the
   * definition. The definition goes last, so that an interrupted cleanup leaves a domain that
   * names its VMI, and the next look finishes the job.
   */
  async remove(observed: ObservedDomain, log: Logger): Promise<void> {
    const { handle, identity, facts } = observed;
    if (facts.state !== DomainState.Shutoff) await ignoreNotRunning(handle.destroy());
    if (identity !== undefined) {
      await this.#options.factory.removeFiles(this.vmDir(identity.uid));
      this.#options.accounting?.forget(identity.uid);
    }
    // An EFI domain has an NVRAM file libvirt made for it; undefine refuses to leave it behind.
    const os = observed.definition?.os;
    const nvram = os?.nvram !== undefined || os?.firmware === "efi";
    await ignoreMissing(handle.undefine(nvram ? UndefineFlags.Nvram : UndefineFlags.None));
    const taps = (observed.definition?.devices.interfaces ?? []).flatMap((nic) =>
      nic.type === "ethernet" && nic.targetManaged === false && nic.targetDev ? [nic.targetDev] : [],
    );
    await this.#options.podNetworks.removeNodeTaps(taps);
    log.info({ domain: observed.name }, "domain and files removed");
  }

  /** Removes the VM directory of `uid` (for a VMI whose domain is already gone). */
  async removeFiles(uid: string): Promise<void> {
    await this.#options.factory.removeFiles(this.vmDir(uid));
  }
}

/** destroy() of a domain that stopped meanwhile is not an error worth retrying. */
async function ignoreNotRunning(call: Promise<void>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!LibvirtError.is(error, ErrorCode.OperationInvalid, ErrorCode.NoDomain)) throw error;
  }
}

async function ignoreMissing(call: Promise<void>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!LibvirtError.is(error, ErrorCode.NoDomain)) throw error;
  }
}
