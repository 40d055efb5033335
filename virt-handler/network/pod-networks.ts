// The pod network of the VMs on this node: for a VMI whose interface on the pod network uses the
// masquerade or the bridge binding, finds its launcher pod's network namespace, plans KubeVirt's
// binding for it and applies the plan around the domain's start (pod-network-setup.ts). VMIs
// without such an interface need nothing here.
import { existsSync } from "node:fs";
import { chown, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { guestHostname, type Interface, LAUNCHER_NETWORK, launcherServedInterface } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import { usesPasst } from "../converter/pod-network.js";
import { MAX_PASST_SOCKET_PATH_BYTES, PASST_SOCKET_DIR, PASST_SOCKET_NAME } from "../domain/socket-paths.js";
import { VmiStartError } from "../domain/vmi-domain-factory.js";
import type { Pod, Vmi } from "../kinds.js";
import { bridgeDhcpConfig, type PodInterfaceFacts } from "./bridge-plan.js";
import { DhcpOptionError, dhcpOptionLines } from "./dhcp-options.js";
import { guestMacAddress } from "./guest-mac.js";
import { type LauncherDns, launcherDns } from "./launcher-dns.js";
import { findLauncherNetns, type LauncherNetns, LauncherNetnsError } from "./launcher-process.js";
import { MasqueradePlanError, type MasqueradePort, planMasquerade } from "./masquerade-plan.js";
import {
  ALL_PORTS_OPEN_FILES,
  forwardsAllPorts,
  PASST_UID,
  PasstPlanError,
  passtArguments,
  subnetGateway,
} from "./passt-plan.js";
import type { PodNetworkSetup } from "./pod-network-setup.js";
import { nodeTapName } from "./tap-name.js";

/** What the bridge binding took from the pod's interface, kept in the VM's directory. */
const POD_INTERFACE_CACHE = "pod-interface.json";
const NO_DNS: LauncherDns = { servers: [], searchDomains: [] };
/** How long a start waits for the launcher's passt to open its socket before it is retried. */
const PASST_SOCKET_WAIT_MS = 10_000;

export interface PodNetworksOptions {
  readonly setup: PodNetworkSetup;
  /** The VMI's launcher pod on this node (the pod informer's view), if it is known. */
  readonly launcherPod: (vmi: Frozen<Vmi>) => Frozen<Pod> | undefined;
  /** The kubelet's pods directory as this process sees it (--kubelet-pods-dir). */
  readonly podsDir: string;
  /** Where a launcher's processes are found (default /proc). */
  readonly procDir?: string;
}

/** The pod network's side of starting a VM: retrying fixes it (the launcher was not there yet). */
export class PodNetworkNotReadyError extends Error {
  override readonly name = "PodNetworkNotReadyError";
}

/** The guest's MAC on its pod interface when it is not the converter's (bridge: the pod's own). */
export interface GuestMacOverride {
  interfaceName: string;
  mac: string;
}

interface Target {
  iface: Interface;
  binding: "masquerade" | "bridge";
  netns: LauncherNetns;
  pod: Frozen<Pod>;
}

export class PodNetworks {
  readonly #options: PodNetworksOptions;

  constructor(options: PodNetworksOptions) {
    this.#options = options;
  }

  /** Before the domain is defined and started: the pod's side, and the tap on the node. */
  async beforeStart(vmi: Frozen<Vmi>, vmDir: string): Promise<GuestMacOverride | undefined> {
    const passt = passtInterface(vmi);
    if (passt !== undefined) {
      await this.#ensurePasst(vmi, passt, vmDir);
      return undefined;
    }
    const target = await this.#target(vmi);
    if (target === undefined) return undefined;
    const { setup } = this.#options;
    const tap = this.#tap(vmi, target);
    if (target.binding === "bridge") {
      const pod = await this.#podInterface(target, vmDir);
      await setup.prepareBridge(target.netns, pod, tap);
      return { interfaceName: target.iface.name, mac: this.#bridgeGuestMac(target, pod) };
    }
    const mtu = await setup.podMtu(target.netns);
    await setup.prepare(target.netns, this.#masquerade(vmi, target, mtu), mtu, tap, vmDir);
    return undefined;
  }

  /** After QEMU opened the tap, and on a later look at a running VM whose pass was cut short. */
  async afterStart(vmi: Frozen<Vmi>, vmDir: string): Promise<void> {
    const target = await this.#target(vmi);
    if (target === undefined) return;
    const { setup } = this.#options;
    const tap = this.#tap(vmi, target);
    const path = this.#dhcpConfigPath(target.pod);
    if (target.binding === "bridge") {
      const pod = await this.#podInterface(target, vmDir);
      const dns = await launcherDns(target.netns, this.#options.procDir);
      const dhcp = bridgeDhcpConfig({
        pod,
        guestMac: this.#bridgeGuestMac(target, pod),
        hostname: hostnameOf(vmi),
        dnsServers: dns.servers,
        searchDomains: dns.searchDomains,
        extraOptions: extraOptionsOf(target.iface),
      });
      await setup.attach(target.netns, tap, pod.mtu, dhcp, path);
      return;
    }
    const mtu = await setup.podMtu(target.netns);
    const dns = await launcherDns(target.netns, this.#options.procDir);
    await setup.attach(target.netns, tap, mtu, this.#masquerade(vmi, target, mtu, dns).dhcpConfig, path);
  }

  /** After the domain is gone: its taps that never moved into the pod (the pod's ones die with it). */
  async removeNodeTaps(taps: readonly string[]): Promise<void> {
    for (const tap of taps) await this.#options.setup.removeNodeTap(tap);
  }

  /**
   * Whether a running VM's network still needs `afterStart` (virt-handler stopped between the start
   * and the end of it). `attach` writes the launcher's DHCP answer last, after the tap moved, so its
   * presence says the pass finished: one file check on the path every look at a running VM takes,
   * no process scan and no command.
   */
  needsAttach(vmi: Frozen<Vmi>): boolean {
    if (servedInterface(vmi) === undefined) return false;
    const pod = this.#options.launcherPod(vmi);
    return pod !== undefined && !existsSync(this.#dhcpConfigPath(pod));
  }

  async #target(vmi: Frozen<Vmi>): Promise<Target | undefined> {
    const served = servedInterface(vmi);
    if (served === undefined) return undefined;
    return { ...served, ...(await this.#launcher(vmi)) };
  }

  /**
   * The passt of the VMI's passt interface: the launcher runs it, in its pod (so in the pod's
   * network namespace and with the pod's resolv.conf), with the arguments left here in its
   * network volume. It lives as long as the pod. Resolves once its socket is there for QEMU.
   */
  async #ensurePasst(vmi: Frozen<Vmi>, iface: Interface, vmDir: string): Promise<void> {
    const socketPath = join(vmDir, PASST_SOCKET_NAME);
    if (Buffer.byteLength(socketPath) > MAX_PASST_SOCKET_PATH_BYTES) {
      throw new VmiStartError(
        "PasstSocketPathTooLong",
        `passt's socket ${socketPath} would be longer than the ${MAX_PASST_SOCKET_PATH_BYTES} bytes passt takes: give virt-handler a shorter --state-dir`,
      );
    }
    const { netns, pod: launcherPod } = await this.#launcher(vmi);
    const argsPath = this.#launcherFile(launcherPod, LAUNCHER_NETWORK.passtArgsFile);
    if (existsSync(argsPath) && (await isSocket(socketPath))) return;
    const ports = portsOf(iface);
    if (forwardsAllPorts(ports)) {
      const limit = await openFilesHardLimit(netns.pid, this.#options.procDir);
      if (limit < ALL_PORTS_OPEN_FILES) {
        throw new VmiStartError(
          "PasstPortsUnavailable",
          `interface ${iface.name} lists no ports, so passt would forward every port, which takes ${ALL_PORTS_OPEN_FILES} open files; the launcher's limit on this node is ${limit}: list the ports the guest serves, or raise the node's limit`,
        );
      }
    }
    const pod = await this.#options.setup.podInterface(netns);
    let args: string[];
    try {
      args = passtArguments({
        interfaceName: iface.name,
        ports,
        mtu: pod.mtu,
        gateway: pod.gateway ?? subnetGateway(pod.address, pod.prefixLength),
        socketPath,
      });
    } catch (error) {
      if (error instanceof PasstPlanError)
        throw new VmiStartError(error.reason, error.message, { cause: error });
      throw error;
    }
    await this.#options.setup.allowUnprivilegedSockets(netns);
    // passt binds its socket as its unprivileged user: a directory of the VM's that user may write,
    // below directories it may pass through.
    const socketDir = join(vmDir, PASST_SOCKET_DIR);
    await checkSearchableByOthers(vmDir);
    await mkdir(socketDir, { recursive: true, mode: 0o700 });
    await chown(socketDir, PASST_UID, PASST_UID);
    await writeFile(`${argsPath}.tmp`, `${args.join("\n")}\n`);
    await rename(`${argsPath}.tmp`, argsPath);
    const deadline = Date.now() + PASST_SOCKET_WAIT_MS;
    while (!(await isSocket(socketPath))) {
      if (Date.now() > deadline) {
        throw new PodNetworkNotReadyError(`the launcher's passt has not opened ${socketPath} yet`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async #launcher(vmi: Frozen<Vmi>): Promise<{ netns: LauncherNetns; pod: Frozen<Pod> }> {
    const pod = this.#options.launcherPod(vmi);
    const podUid = pod?.metadata?.uid;
    if (pod === undefined || podUid === undefined) {
      throw new PodNetworkNotReadyError("the launcher pod of the VMI is not among this node's pods yet");
    }
    const netns = await findLauncherNetns(podUid, this.#options.procDir).catch((error: unknown) => {
      if (error instanceof LauncherNetnsError)
        throw new VmiStartError(error.reason, error.message, { cause: error });
      throw error;
    });
    if (netns === undefined) {
      throw new PodNetworkNotReadyError(
        `no process of launcher pod ${pod.metadata?.name ?? podUid} runs yet`,
      );
    }
    return { netns, pod };
  }

  /**
   * The pod interface as it was before the bridge binding took it: read once and kept in the VM's
   * directory, since afterwards the pod no longer has it on eth0 (a restarted virt-handler reads it back).
   */
  async #podInterface(target: Target, vmDir: string): Promise<PodInterfaceFacts> {
    const cache = join(vmDir, POD_INTERFACE_CACHE);
    const cached = await readFile(cache, "utf8").catch(() => undefined);
    if (cached !== undefined) return JSON.parse(cached) as PodInterfaceFacts;
    const facts = await this.#options.setup.podInterface(target.netns);
    await writeFile(`${cache}.tmp`, JSON.stringify(facts));
    await rename(`${cache}.tmp`, cache);
    return facts;
  }

  /** KubeVirt's rule: the guest takes the pod interface's MAC unless the interface names one. */
  #bridgeGuestMac(target: Target, pod: PodInterfaceFacts): string {
    if (target.iface.macAddress === undefined) return pod.mac;
    const mac = guestMacAddress(target.iface, "");
    if (mac instanceof Error) throw new VmiStartError("InvalidSpec", mac.message);
    return mac;
  }

  /** The plan; `dns` only matters to its DHCP answer (beforeStart applies the NAT rules only). */
  #masquerade(vmi: Frozen<Vmi>, target: Target, mtu: number, dns: LauncherDns = NO_DNS) {
    const mac = guestMacAddress(target.iface, vmi.metadata?.uid ?? "");
    if (mac instanceof Error) throw new VmiStartError("InvalidSpec", mac.message);
    const network = vmi.spec.networks?.find((candidate) => candidate.name === target.iface.name);
    const vmNetworkCidr = network?.pod?.vmNetworkCIDR;
    try {
      return planMasquerade({
        interfaceName: target.iface.name,
        guestMac: mac,
        ports: portsOf(target.iface),
        ...(vmNetworkCidr ? { vmNetworkCidr } : {}),
        mtu,
        hostname: hostnameOf(vmi),
        dnsServers: dns.servers,
        searchDomains: dns.searchDomains,
        extraOptions: extraOptionsOf(target.iface),
      });
    } catch (error) {
      if (error instanceof MasqueradePlanError)
        throw new VmiStartError(error.reason, error.message, { cause: error });
      throw error;
    }
  }

  #tap(vmi: Frozen<Vmi>, target: Target): string {
    return nodeTapName(vmi.metadata?.uid ?? "", target.iface.name);
  }

  #dhcpConfigPath(pod: Frozen<Pod>): string {
    return this.#launcherFile(pod, LAUNCHER_NETWORK.dhcpConfigFile);
  }

  /** A file of the launcher pod's network volume, as the node sees it. */
  #launcherFile(pod: Frozen<Pod>, file: string): string {
    const uid = pod.metadata?.uid ?? "";
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uid)) {
      throw new Error(`the launcher pod has uid "${uid}", which is not a UUID`);
    }
    if (!pod.spec?.volumes?.some((volume) => volume.name === LAUNCHER_NETWORK.volume && volume.emptyDir)) {
      throw new Error(
        `the launcher pod has no ${LAUNCHER_NETWORK.volume} volume (it was created without it): recreate the VMI`,
      );
    }
    return join(
      this.#options.podsDir,
      uid,
      "volumes",
      "kubernetes.io~empty-dir",
      LAUNCHER_NETWORK.volume,
      file,
    );
  }
}

/** The VMI's interface on the pod network that joins the launcher pod, with its binding. */
function servedInterface(
  vmi: Frozen<Vmi>,
): { iface: Interface; binding: "masquerade" | "bridge" } | undefined {
  const name = launcherServedInterface(vmi.spec);
  const iface = vmi.spec.domain.devices.interfaces?.find((candidate) => candidate.name === name) as
    | Interface
    | undefined;
  if (iface === undefined) return undefined;
  return { iface, binding: iface.masquerade !== undefined ? "masquerade" : "bridge" };
}

/** The VMI's interface on the pod network that passt serves, if any. */
function passtInterface(vmi: Frozen<Vmi>): Interface | undefined {
  const podNetworks = new Set(
    (vmi.spec.networks ?? []).filter((network) => network.pod !== undefined).map((network) => network.name),
  );
  return (vmi.spec.domain.devices.interfaces ?? []).find(
    (iface) => podNetworks.has(iface.name) && iface.state !== "absent" && usesPasst(iface as Interface),
  ) as Interface | undefined;
}

/** The interface's dhcpOptions; a value udhcpd cannot carry fails the VMI's start, with its reason. */
function extraOptionsOf(iface: Interface): string[] {
  try {
    return dhcpOptionLines(iface);
  } catch (error) {
    if (error instanceof DhcpOptionError)
      throw new VmiStartError(error.reason, error.message, { cause: error });
    throw error;
  }
}

function hostnameOf(vmi: Frozen<Vmi>): string {
  return guestHostname(vmi.metadata?.name ?? "", vmi.spec.hostname);
}

function portsOf(iface: Interface): MasqueradePort[] {
  return (iface.ports ?? []).map((port) => ({
    protocol: (port.protocol ?? "TCP").toLowerCase() === "udp" ? "udp" : "tcp",
    port: port.port,
  }));
}

async function isSocket(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isSocket() ?? false;
}

/** The hard open-files limit of process `pid`, which passt, run by the launcher, has too. */
async function openFilesHardLimit(pid: number, procDir = "/proc"): Promise<number> {
  const limits = await readFile(join(procDir, String(pid), "limits"), "utf8");
  const line = limits.split("\n").find((candidate) => candidate.startsWith("Max open files"));
  const hard = line?.trim().split(/\s+/)[4];
  return hard === undefined || hard === "unlimited" ? Number.POSITIVE_INFINITY : Number(hard);
}

/** Every directory from `dir` up must let others through (passt, as nobody, reaches its socket there). */
async function checkSearchableByOthers(dir: string): Promise<void> {
  for (let current = dir; ; current = dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) {
      throw new VmiStartError(
        "PasstSocketUnreachable",
        `passt runs as an unprivileged user and cannot reach its socket below ${current} (mode ${(mode & 0o777).toString(8)}): let others search the state directory and its parents (chmod o+x)`,
      );
    }
    if (dirname(current) === current) return;
  }
}
