import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import type { Logger } from "pino";
import { AddressPool } from "./address-pool.js";
import { runIp, runIpBatch, runIpJson } from "./ip-command.js";
import { cidrContains, formatIpv4, type Ipv4Cidr, parseCidr } from "./ipv4.js";
import { removePodEtcFiles } from "./pod-dns.js";
import type { PodNetwork, PodNetworkAttachment } from "./pod-network.js";

export interface BridgeNetworkOptions {
  bridgeName: string;
  cidr: string;
  log: Logger;
}

const netnsDir = "/run/netns";

/**
 * Pod networking as a simple bridge CNI plugin does it, without NAT or forwarding: a node
 * bridge holding the first address of the pod CIDR, and per pod a network namespace joined to
 * the bridge by a veth pair, with the next free address and only the connected route of the
 * CIDR. Pods reach each other and the node's bridge address, nothing else; the node reaches
 * them through the bridge. ip_forward and iptables are never touched.
 *
 * Names derive from the bridge and the pod uid, so a restarted agent finds what a killed run
 * left: namespaces are `<bridge>-<pod uid>`, host-side veths `v<hash>`.
 */
export class BridgePodNetwork implements PodNetwork {
  readonly mode = "netns" as const;
  readonly hostIP: string;
  readonly #bridge: string;
  readonly #cidr: Ipv4Cidr;
  readonly #pool: AddressPool;
  readonly #log: Logger;

  private constructor(options: BridgeNetworkOptions, cidr: Ipv4Cidr) {
    this.#bridge = options.bridgeName;
    this.#cidr = cidr;
    this.hostIP = formatIpv4(cidr.network + 1);
    this.#pool = new AddressPool(cidr, [this.hostIP]);
    this.#log = options.log;
  }

  /** Creates (or takes over) the bridge with its address, and brings it up. */
  static async create(options: BridgeNetworkOptions): Promise<BridgePodNetwork> {
    if (options.bridgeName.length > 15 || !/^[A-Za-z0-9_.-]+$/.test(options.bridgeName)) {
      throw new Error(`"${options.bridgeName}" is not a valid interface name (at most 15 characters)`);
    }
    const network = new BridgePodNetwork(options, parseCidr(options.cidr));
    await network.#ensureBridge();
    return network;
  }

  async attach(podUid: string): Promise<PodNetworkAttachment> {
    const netns = this.#netnsName(podUid);
    const hostVeth = this.#vethName(podUid);
    if (existsSync(`${netnsDir}/${netns}`)) await this.#deleteNetns(netns);
    const podIP = this.#pool.allocate();
    try {
      // One command creates the pair with its pod end already inside the namespace, so a crash
      // can leave nothing outside a namespace named after the pod.
      await runIpBatch([
        ["netns", "add", netns],
        ["link", "add", hostVeth, "type", "veth", "peer", "name", "eth0", "netns", netns],
        // The pod network is IPv4: no IPv6 link-local address (and so no duplicate address
        // detection or router solicitation) on either end, whose kernel work per interface was
        // the largest CPU cost of a burst of pod starts after the guests themselves.
        ["link", "set", hostVeth, "addrgenmode", "none"],
        ["link", "set", hostVeth, "master", this.#bridge, "up"],
      ]);
      await runIpBatch(
        [
          ["link", "set", "eth0", "addrgenmode", "none"],
          ["addr", "add", `${podIP}/${this.#cidr.prefixLength}`, "dev", "eth0"],
          ["link", "set", "lo", "up"],
          ["link", "set", "eth0", "up"],
        ],
        { netns },
      );
    } catch (error) {
      this.#pool.release(podIP);
      await this.#deleteNetns(netns).catch(() => {});
      throw new Error(`cannot create the network of pod ${podUid}`, { cause: error });
    }
    return { mode: "netns", podIP, hostIP: this.hostIP, netns };
  }

  async adopt(attachment: PodNetworkAttachment): Promise<boolean> {
    if (attachment.mode !== "netns" || !attachment.netns) return false;
    if (!existsSync(`${netnsDir}/${attachment.netns}`)) return false;
    if (!cidrContains(this.#cidr, attachment.podIP)) return false;
    this.#pool.claim(attachment.podIP);
    return true;
  }

  async detach(attachment: PodNetworkAttachment): Promise<void> {
    if (attachment.mode !== "netns" || !attachment.netns) return;
    // Deleting the namespace destroys its end of the veth, and with it the host end.
    await this.#deleteNetns(attachment.netns);
    await removePodEtcFiles(attachment.netns);
    this.#pool.release(attachment.podIP);
  }

  async removeLeftovers(keepPodUids: ReadonlySet<string>): Promise<string[]> {
    const prefix = `${this.#bridge}-`;
    const keepNetns = new Set([...keepPodUids].map((uid) => this.#netnsName(uid)));
    const removed: string[] = [];
    for (const name of await listNetns()) {
      if (name.startsWith(prefix) && !keepNetns.has(name)) {
        await this.#deleteNetns(name);
        await removePodEtcFiles(name);
        removed.push(`netns ${name}`);
      }
    }
    const keepVeths = new Set([...keepPodUids].map((uid) => this.#vethName(uid)));
    for (const link of await this.#bridgePorts()) {
      if (!keepVeths.has(link)) {
        await runIp(["link", "del", link]).catch(() => {});
        removed.push(`veth ${link}`);
      }
    }
    return removed;
  }

  /**
   * `ip netns exec` rather than `nsenter --net`: besides the namespace it gives the process a
   * mount namespace with the pod's own /etc/resolv.conf and /etc/hosts (pod-dns.ts) mounted over
   * the node's, as a container has them.
   */
  execPrefix(attachment: PodNetworkAttachment): string[] {
    if (attachment.mode !== "netns" || !attachment.netns) return [];
    return ["ip", "netns", "exec", attachment.netns];
  }

  async close(removeBridge: boolean): Promise<void> {
    if (!removeBridge) return;
    await runIp(["link", "del", this.#bridge]).catch((error: unknown) =>
      this.#log.warn({ err: error, bridge: this.#bridge }, "cannot remove the node bridge"),
    );
  }

  async #ensureBridge(): Promise<void> {
    const links = await runIpJson(["link", "show", "type", "bridge"]);
    const exists = Array.isArray(links) && links.some((link) => ifname(link) === this.#bridge);
    if (!exists) await runIp(["link", "add", this.#bridge, "type", "bridge"]);
    const address = `${this.hostIP}/${this.#cidr.prefixLength}`;
    const addresses = await runIpJson(["addr", "show", "dev", this.#bridge]);
    if (!hasAddress(addresses, this.hostIP, this.#cidr.prefixLength)) {
      await runIp(["addr", "add", address, "dev", this.#bridge]);
    }
    await runIp(["link", "set", this.#bridge, "up"]);
    this.#log.info({ bridge: this.#bridge, address, created: !exists }, "node bridge ready");
  }

  async #bridgePorts(): Promise<string[]> {
    const links = await runIpJson(["link", "show", "master", this.#bridge]);
    return Array.isArray(links) ? links.map(ifname).filter((name): name is string => name !== undefined) : [];
  }

  async #deleteNetns(name: string): Promise<void> {
    try {
      await runIp(["netns", "del", name]);
    } catch (error) {
      if (existsSync(`${netnsDir}/${name}`)) throw error;
    }
  }

  #netnsName(podUid: string): string {
    return `${this.#bridge}-${podUid}`;
  }

  #vethName(podUid: string): string {
    return `v${createHash("sha256").update(`${this.#bridge}/${podUid}`).digest("hex").slice(0, 12)}`;
  }
}

async function listNetns(): Promise<string[]> {
  const output = await runIp(["netns", "list"]);
  return output
    .split("\n")
    .map((line) => line.trim().split(" ")[0] ?? "")
    .filter((name) => name !== "");
}

function ifname(link: unknown): string | undefined {
  if (typeof link !== "object" || link === null) return undefined;
  const name = (link as { ifname?: unknown }).ifname;
  return typeof name === "string" ? name : undefined;
}

function hasAddress(answer: unknown, address: string, prefixLength: number): boolean {
  if (!Array.isArray(answer)) return false;
  return answer.some((link: unknown) => {
    const infos = (link as { addr_info?: unknown }).addr_info;
    return (
      Array.isArray(infos) &&
      infos.some((info: unknown) => {
        const entry = info as { local?: unknown; prefixlen?: unknown };
        return entry.local === address && entry.prefixlen === prefixLength;
      })
    );
  });
}
