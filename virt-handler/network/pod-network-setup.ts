// Puts a VM's masquerade interface into its launcher pod's network namespace, KubeVirt's way, with
// QEMU still under the node's libvirt. libvirt opens a tap by name in its own namespace, so the tap
// is made on the node first (`prepare`), opened by QEMU when the domain starts, then moved into the
// pod (`attach`): a tap keeps its file descriptor, and with it QEMU, across namespaces. From then on
// the guest's frames only exist in the pod: tap0 on the bridge k6t-eth0, NAT to and from eth0, DHCP
// from the launcher. The pod's namespace dies with the pod, and the tap with it.
//
// Every step looks before it acts, so a virt-handler killed anywhere in between finishes the job
// on its next pass (level-based), and a VM that runs keeps its network while virt-handler is away.
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BRIDGE_DHCP_SERVER, POD_NIC, type PodInterfaceFacts, podNicMac } from "./bridge-plan.js";
import type { LauncherNetns } from "./launcher-process.js";
import { BRIDGE_MAC, type MasqueradePlan, POD_BRIDGE, POD_INTERFACE, POD_TAP } from "./masquerade-plan.js";

/** Runs a program (no shell) and resolves with its stdout; rejects when it fails. `input` goes to its stdin. */
export type RunCommand = (
  command: string,
  args: readonly string[],
  options?: { input?: string },
) => Promise<string>;

interface LinkInfo {
  ifname: string;
  address?: string;
  mtu?: number;
  master?: string;
  operstate?: string;
  flags?: string[];
}

/**
 * Where libvirt (and so QEMU) opens taps: libvirtd's network namespace, the node's, whatever
 * namespace virt-handler's own pod has. Found at each use, since libvirtd may restart.
 */
export type NodeNetns = () => Promise<string>;

export class PodNetworkSetup {
  readonly #run: RunCommand;
  readonly #nodeNetns: NodeNetns;

  constructor(run: RunCommand, nodeNetns: NodeNetns) {
    this.#run = run;
    this.#nodeNetns = nodeNetns;
  }

  /** The MTU of the pod's own interface, which the bridge, the tap and the guest take. */
  async podMtu(netns: LauncherNetns): Promise<number> {
    const eth0 = (await this.#links(netns)).find((link) => link.ifname === POD_INTERFACE);
    if (eth0?.mtu === undefined) throw new Error(`the launcher pod has no ${POD_INTERFACE}`);
    return eth0.mtu;
  }

  /**
   * Before the domain starts: the pod's bridge with the VM network's gateway, forwarding and the
   * NAT rules in the pod, and the tap on the node for libvirt to open (unless it is in the pod already).
   */
  async prepare(
    netns: LauncherNetns,
    plan: MasqueradePlan,
    mtu: number,
    tap: string,
    workDir: string,
  ): Promise<void> {
    const links = await this.#links(netns);
    const { gateway, prefixLength } = plan.network;
    await this.#inPodBatch(netns, [
      ...(links.some((link) => link.ifname === POD_BRIDGE)
        ? []
        : [["link", "add", POD_BRIDGE, "type", "bridge"]]),
      ["link", "set", POD_BRIDGE, "address", BRIDGE_MAC, "mtu", String(mtu)],
      // The VM network is IPv4 (KubeVirt's masquerade subnet): no IPv6 link-local address, and
      // no duplicate address detection or router solicitation, on the bridge and the tap.
      ["link", "set", POD_BRIDGE, "addrgenmode", "none"],
      ["addr", "replace", `${gateway}/${prefixLength}`, "dev", POD_BRIDGE],
      ["link", "set", POD_BRIDGE, "up"],
    ]);
    // Forwarding between eth0 and the bridge, and 127.0.0.1 DNATed to the guest (KubeVirt's sysctls);
    // per namespace, so the node's own forwarding is untouched.
    await this.#inPod(netns, "sysctl", [
      "-q",
      "-w",
      "net.ipv4.ip_forward=1",
      `net.ipv4.conf.${POD_BRIDGE}.route_localnet=1`,
    ]);
    const rules = join(workDir, "masquerade.nft");
    await writeFile(rules, plan.nftScript);
    await this.#inPod(netns, "nft", ["-f", rules]);
    const tapInPod = links.some((link) => link.ifname === POD_TAP);
    if (!tapInPod && !(await this.#nodeHasLink(tap))) {
      await this.#onNode("ip", ["tuntap", "add", "dev", tap, "mode", "tap"]);
    }
  }

  /** The pod interface's MAC, IPv4 address and routes, before the bridge binding takes them. */
  async podInterface(netns: LauncherNetns): Promise<PodInterfaceFacts> {
    const [link] = JSON.parse(
      await this.#inPod(netns, "ip", ["-j", "addr", "show", "dev", POD_INTERFACE]),
    ) as (LinkInfo & { addr_info?: { family?: string; local?: string; prefixlen?: number }[] })[];
    const ipv4 = link?.addr_info?.find((entry) => entry.family === "inet");
    if (!link?.address || !ipv4?.local || ipv4.prefixlen === undefined || link.mtu === undefined) {
      throw new Error(`the launcher pod's ${POD_INTERFACE} has no IPv4 address to give its guest`);
    }
    const routes = JSON.parse(
      await this.#inPod(netns, "ip", ["-j", "-4", "route", "show", "dev", POD_INTERFACE]),
    ) as { dst?: string; gateway?: string }[];
    const gateway = routes.find((route) => route.dst === "default")?.gateway;
    return {
      mac: link.address,
      address: ipv4.local,
      prefixLength: ipv4.prefixlen,
      mtu: link.mtu,
      ...(gateway ? { gateway } : {}),
      routes: routes.flatMap((route) =>
        route.dst && route.dst !== "default" && route.gateway
          ? [{ destination: route.dst, gateway: route.gateway }]
          : [],
      ),
    };
  }

  /**
   * Before the domain starts, for the bridge binding: the pod's interface becomes eth0-nic (no
   * address, a MAC of its own) on the bridge, the bridge answers no ARP (the guest does, for the
   * pod's address it takes), and the tap waits on the node for libvirt. KubeVirt keeps the address
   * on a dummy eth0 for the pod's own view; nothing in our launcher pod uses it (its status comes
   * from the kubelet), and not every node's kernel has dummy devices, so the pod gives it up.
   */
  /**
   * For the passt binding: the guest's ports (22, 80, ...) bound by passt once it runs as nobody,
   * and ICMP echo sockets for its group, as KubeVirt sets them for its launcher; per namespace, so
   * the node's own settings are untouched.
   */
  async allowUnprivilegedSockets(netns: LauncherNetns): Promise<void> {
    await this.#inPod(netns, "sysctl", [
      "-q",
      "-w",
      "net.ipv4.ip_unprivileged_port_start=0",
      "net.ipv4.ping_group_range=65534 65534",
    ]);
  }

  async prepareBridge(netns: LauncherNetns, pod: PodInterfaceFacts, tap: string): Promise<void> {
    let links = await this.#links(netns);
    if (!links.some((link) => link.ifname === POD_NIC)) {
      await this.#inPod(netns, "ip", ["link", "set", POD_INTERFACE, "down"]);
      await this.#inPod(netns, "ip", ["link", "set", POD_INTERFACE, "name", POD_NIC]);
      await this.#inPod(netns, "ip", ["addr", "flush", "dev", POD_NIC]);
      await this.#inPod(netns, "ip", ["link", "set", POD_NIC, "address", podNicMac(pod.mac)]);
      links = await this.#links(netns);
    }
    if (!links.some((link) => link.ifname === POD_BRIDGE)) {
      await this.#inPod(netns, "ip", ["link", "add", POD_BRIDGE, "type", "bridge"]);
    }
    await this.#inPod(netns, "ip", ["link", "set", POD_BRIDGE, "mtu", String(pod.mtu)]);
    await this.#inPod(netns, "ip", ["addr", "replace", BRIDGE_DHCP_SERVER, "dev", POD_BRIDGE]);
    await this.#inPod(netns, "sysctl", ["-q", "-w", `net.ipv4.conf.${POD_BRIDGE}.arp_ignore=1`]);
    await this.#inPod(netns, "ip", ["link", "set", POD_BRIDGE, "up"]);
    // What the pod's own netfilter translates of the guest's bridged traffic (a Service address
    // DNATed in the pod, as the dev cluster's kube-proxy does) is sent on by the bridge it came in
    // on only if the pod routes its range there and forwards (br_netfilter's "bridged DNAT"); the
    // pod has no address left, and no other route, so nothing else is forwarded.
    await this.#inPod(netns, "ip", ["route", "replace", podSubnet(pod), "dev", POD_BRIDGE]);
    await this.#inPod(netns, "sysctl", ["-q", "-w", "net.ipv4.ip_forward=1"]);
    await this.#inPod(netns, "ip", [
      "link",
      "set",
      POD_NIC,
      "master",
      POD_BRIDGE,
      "mtu",
      String(pod.mtu),
      "up",
    ]);
    const tapInPod = links.some((link) => link.ifname === POD_TAP);
    if (!tapInPod && !(await this.#nodeHasLink(tap))) {
      await this.#onNode("ip", ["tuntap", "add", "dev", tap, "mode", "tap"]);
    }
  }

  /**
   * After QEMU opened the tap: moves it into the pod as tap0 on the bridge, then hands the
   * launcher its DHCP configuration (the launcher starts answering once it appears).
   */
  async attach(
    netns: LauncherNetns,
    tap: string,
    mtu: number,
    dhcpConfig: string,
    dhcpConfigPath: string,
  ): Promise<void> {
    if (await this.#nodeHasLink(tap)) {
      await this.#onNode("ip", ["link", "set", "dev", tap, "netns", String(netns.pid)]);
    }
    const links = await linkNames(netns.pid);
    const renamed = links.includes(POD_TAP);
    if (!renamed && !links.includes(tap)) {
      throw new Error(`the tap ${tap} is neither on the node nor in the launcher pod`);
    }
    await this.#inPodBatch(netns, [
      ...(renamed ? [] : [["link", "set", "dev", tap, "name", POD_TAP]]),
      ["link", "set", "dev", POD_TAP, "addrgenmode", "none"],
      ["link", "set", "dev", POD_TAP, "master", POD_BRIDGE, "mtu", String(mtu), "up"],
    ]);
    const temporary = `${dhcpConfigPath}.tmp`;
    await writeFile(temporary, dhcpConfig);
    await rename(temporary, dhcpConfigPath);
  }

  /** Removes a tap left on the node (a start that failed before it moved); gone already is fine. */
  async removeNodeTap(tap: string): Promise<void> {
    if (await this.#nodeHasLink(tap)) await this.#onNode("ip", ["link", "del", "dev", tap]);
  }

  async #links(netns: LauncherNetns): Promise<LinkInfo[]> {
    return JSON.parse(await this.#inPod(netns, "ip", ["-j", "link", "show"])) as LinkInfo[];
  }

  async #nodeHasLink(name: string): Promise<boolean> {
    const nodeNetns = await this.#nodeNetns();
    const pid = /^\/proc\/(\d+)\/ns\/net$/.exec(nodeNetns)?.[1];
    if (pid !== undefined) return (await linkNames(Number(pid))).includes(name);
    const links = JSON.parse(await this.#onNode("ip", ["-j", "link", "show"])) as LinkInfo[];
    return links.some((link) => link.ifname === name);
  }

  async #onNode(command: string, args: readonly string[]): Promise<string> {
    return this.#run("nsenter", [`--net=${await this.#nodeNetns()}`, "--", command, ...args]);
  }

  #inPod(netns: LauncherNetns, command: string, args: readonly string[]): Promise<string> {
    return this.#run("nsenter", [`--net=${netns.path}`, "--", command, ...args]);
  }

  /** Several `ip` commands in the pod in one process (`ip -batch`): one spawn where each would cost one. */
  async #inPodBatch(netns: LauncherNetns, commands: readonly (readonly string[])[]): Promise<void> {
    const input = `${commands.map((command) => command.join(" ")).join("\n")}\n`;
    await this.#run("nsenter", [`--net=${netns.path}`, "--", "ip", "-batch", "-"], { input });
  }
}

/**
 * The interfaces of process `pid`'s network namespace, read from /proc/<pid>/net/dev (the
 * kernel's view of that namespace) rather than by running `ip` in it.
 */
async function linkNames(pid: number): Promise<string[]> {
  const table = await readFile(`/proc/${pid}/net/dev`, "utf8");
  return table
    .split("\n")
    .slice(2)
    .flatMap((line) => {
      const name = line.split(":")[0]?.trim();
      return name ? [name] : [];
    });
}

/** The pod interface's network, e.g. 10.244.0.0/24 for 10.244.0.7/24. */
function podSubnet(pod: PodInterfaceFacts): string {
  const value = pod.address.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
  const size = 2 ** (32 - pod.prefixLength);
  const network = value - (value % size);
  const octets = [24, 16, 8, 0].map((shift) => Math.floor(network / 2 ** shift) % 256);
  return `${octets.join(".")}/${pod.prefixLength}`;
}
