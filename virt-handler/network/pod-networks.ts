// The pod network of the VMs on this node: for a VMI whose interface on the pod network uses the
// masquerade binding, finds its launcher pod's network namespace, plans KubeVirt's masquerade for it
// and applies the plan around the domain's start (pod-network-setup.ts). VMIs without such an
// interface need nothing here.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { guestHostname, type Interface, LAUNCHER_NETWORK, launcherServedInterface } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import { VmiStartError } from "../domain/vmi-domain-factory.js";
import type { Pod, Vmi } from "../kinds.js";
import { guestMacAddress } from "./guest-mac.js";
import { findLauncherNetns, type LauncherNetns, LauncherNetnsError } from "./launcher-process.js";
import { MasqueradePlanError, type MasqueradePort, planMasquerade } from "./masquerade-plan.js";
import type { PodNetworkSetup } from "./pod-network-setup.js";
import { nodeTapName } from "./tap-name.js";

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

interface Target {
  iface: Interface;
  netns: LauncherNetns;
  pod: Frozen<Pod>;
}

export class PodNetworks {
  readonly #options: PodNetworksOptions;

  constructor(options: PodNetworksOptions) {
    this.#options = options;
  }

  /** Before the domain is defined and started: the pod's side, and the tap on the node. */
  async beforeStart(vmi: Frozen<Vmi>, vmDir: string): Promise<void> {
    const target = await this.#target(vmi);
    if (target === undefined) return;
    const { setup } = this.#options;
    const mtu = await setup.podMtu(target.netns);
    await setup.prepare(target.netns, this.#plan(vmi, target, mtu), mtu, this.#tap(vmi, target), vmDir);
  }

  /** After QEMU opened the tap, and on every later look at a running VM (a pass may have been cut short). */
  async afterStart(vmi: Frozen<Vmi>): Promise<void> {
    const target = await this.#target(vmi);
    if (target === undefined) return;
    const { setup } = this.#options;
    const mtu = await setup.podMtu(target.netns);
    const plan = this.#plan(vmi, target, mtu);
    await setup.attach(
      target.netns,
      this.#tap(vmi, target),
      mtu,
      plan.dhcpConfig,
      this.#dhcpConfigPath(target.pod),
    );
  }

  /** After the domain is gone: its taps that never moved into the pod (the pod's ones die with it). */
  async removeNodeTaps(taps: readonly string[]): Promise<void> {
    for (const tap of taps) await this.#options.setup.removeNodeTap(tap);
  }

  /**
   * Whether a running VM's network still needs `afterStart`: its tap waits on the node, or the
   * launcher has no DHCP answer yet (virt-handler stopped between the start and the end of it).
   */
  async needsAttach(vmi: Frozen<Vmi>): Promise<boolean> {
    const iface = masqueradeInterface(vmi);
    if (iface === undefined) return false;
    if (await this.#options.setup.tapOnNode(nodeTapName(vmi.metadata?.uid ?? "", iface.name))) return true;
    const pod = this.#options.launcherPod(vmi);
    return pod !== undefined && !existsSync(this.#dhcpConfigPath(pod));
  }

  async #target(vmi: Frozen<Vmi>): Promise<Target | undefined> {
    const iface = masqueradeInterface(vmi);
    if (iface === undefined) return undefined;
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
    return { iface, netns, pod };
  }

  #plan(vmi: Frozen<Vmi>, target: Target, mtu: number) {
    const mac = guestMacAddress(target.iface, vmi.metadata?.uid ?? "");
    if (mac instanceof Error) throw new VmiStartError("InvalidSpec", mac.message);
    const network = vmi.spec.networks?.find((candidate) => candidate.name === target.iface.name);
    try {
      return this.#planOf(vmi, target, mac, mtu, network?.pod?.vmNetworkCIDR);
    } catch (error) {
      if (error instanceof MasqueradePlanError)
        throw new VmiStartError(error.reason, error.message, { cause: error });
      throw error;
    }
  }

  #planOf(vmi: Frozen<Vmi>, target: Target, mac: string, mtu: number, vmNetworkCidr: string | undefined) {
    return planMasquerade({
      interfaceName: target.iface.name,
      guestMac: mac,
      ports: portsOf(target.iface),
      ...(vmNetworkCidr ? { vmNetworkCidr } : {}),
      mtu,
      hostname: guestHostname(vmi.metadata?.name ?? "", vmi.spec.hostname),
      // The dev cluster has no cluster DNS yet: no servers are offered rather than the node's own.
      dnsServers: [],
      searchDomains: [],
    });
  }

  #tap(vmi: Frozen<Vmi>, target: Target): string {
    return nodeTapName(vmi.metadata?.uid ?? "", target.iface.name);
  }

  #dhcpConfigPath(pod: Frozen<Pod>): string {
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
      LAUNCHER_NETWORK.dhcpConfigFile,
    );
  }
}

/** The VMI's interface on the pod network, when its binding is masquerade. */
export function masqueradeInterface(vmi: Frozen<Vmi>): Interface | undefined {
  const name = launcherServedInterface(vmi.spec);
  return vmi.spec.domain.devices.interfaces?.find((iface) => iface.name === name) as Interface | undefined;
}

function portsOf(iface: Interface): MasqueradePort[] {
  return (iface.ports ?? []).map((port) => ({
    protocol: (port.protocol ?? "TCP").toLowerCase() === "udp" ? "udp" : "tcp",
    port: port.port,
  }));
}
