import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";

/** A live process of one dev cluster's node, found in /proc. */
export interface NodeProcess {
  pid: number;
  argv: string[];
  env: Map<string, string>;
}

function readNulSeparated(path: string): string[] | undefined {
  try {
    return readFileSync(path, "utf8")
      .split("\0")
      .filter((part) => part !== "");
  } catch {
    return undefined; // gone meanwhile, or a kernel thread
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/**
 * Live (not zombie) processes the node agent started for `nodeName`: their environment names
 * the node (KUBEVIRT_TS_NODE_NAME), or their command line names a file under `dataDir` (the
 * container wrappers write their exit status there).
 */
export function processesOfNode(nodeName: string, dataDir: string): NodeProcess[] {
  const found: NodeProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const argv = readNulSeparated(`/proc/${pid}/cmdline`);
    const environ = readNulSeparated(`/proc/${pid}/environ`);
    if (!argv || !environ) continue;
    const env = new Map(
      environ.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
    );
    const ours =
      env.get("KUBEVIRT_TS_NODE_NAME") === nodeName || argv.some((arg) => arg.startsWith(`${dataDir}/`));
    if (ours && !isZombie(pid)) found.push({ pid, argv, env });
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !isZombie(pid);
}

export function networkNamespaces(): string[] {
  return execFileSync("ip", ["netns", "list"], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(" ")[0] ?? "")
    .filter((name) => name !== "");
}

export function linkNames(): string[] {
  const links = JSON.parse(execFileSync("ip", ["-j", "link", "show"], { encoding: "utf8" })) as {
    ifname: string;
  }[];
  return links.map((link) => link.ifname);
}

/** Every IPv4 address configured on this machine. */
export function localIpv4Addresses(): string[] {
  const links = JSON.parse(execFileSync("ip", ["-j", "-4", "addr", "show"], { encoding: "utf8" })) as {
    addr_info?: { local?: string }[];
  }[];
  return links.flatMap((link) => (link.addr_info ?? []).flatMap((info) => (info.local ? [info.local] : [])));
}

/** A /24 in 10.250.0.0/16 that no interface of this machine uses, starting from one derived from the pid. */
export function unusedPodCidr(): string {
  const used = new Set(localIpv4Addresses().map((address) => address.split(".").slice(0, 3).join(".")));
  for (let step = 0; step < 256; step++) {
    const prefix = `10.250.${(process.pid + step) % 256}`;
    if (!used.has(prefix)) return `${prefix}.0/24`;
  }
  throw new Error("every /24 of 10.250.0.0/16 is in use on this machine");
}

/** The node agent's names for a pod's network: namespace `<bridge>-<uid>`, host veth `v<hash>`. */
export function podNetworkNames(bridge: string, podUid: string): { netns: string; veth: string } {
  const hash = createHash("sha256").update(`${bridge}/${podUid}`).digest("hex").slice(0, 12);
  return { netns: `${bridge}-${podUid}`, veth: `v${hash}` };
}

/** The pod uids the node agent kept records for under its data dir. */
export function recordedPodUids(agentDataDir: string): string[] {
  try {
    return readdirSync(`${agentDataDir}/pods`);
  } catch {
    return [];
  }
}

/**
 * Last-resort cleanup after a failed run: ends the node's processes, removes its pods'
 * namespaces (their veths go with them) and, when `removeBridge`, the bridge.
 */
/** The node's nftables tables of family ip (the Service proxy names its own after the bridge). */
export function nodeNftTables(): string[] {
  try {
    return execFileSync("nft", ["list", "tables", "ip"], { encoding: "utf8" })
      .split("\n")
      .map((line) => line.trim().split(" ")[2] ?? "")
      .filter((name) => name !== "");
  } catch {
    return [];
  }
}

export function removeNodeLeftovers(options: {
  nodeName: string;
  dataDir: string;
  bridge: string;
  podUids: Iterable<string>;
  removeBridge: boolean;
}): string[] {
  const removed: string[] = [];
  for (const { pid } of processesOfNode(options.nodeName, options.dataDir)) {
    try {
      process.kill(pid, "SIGKILL");
      removed.push(`process ${pid}`);
    } catch {
      // ended meanwhile
    }
  }
  const namespaces = new Set(networkNamespaces());
  for (const uid of options.podUids) {
    const { netns } = podNetworkNames(options.bridge, uid);
    if (!namespaces.has(netns)) continue;
    execFileSync("ip", ["netns", "del", netns]);
    removed.push(`netns ${netns}`);
  }
  for (const uid of options.podUids) {
    const etcDir = `/etc/netns/${podNetworkNames(options.bridge, uid).netns}`;
    if (!existsSync(etcDir)) continue;
    rmSync(etcDir, { recursive: true, force: true });
    removed.push(`dir ${etcDir}`);
  }
  const table = `kubevirt-ts-${options.bridge}`;
  if (nodeNftTables().includes(table)) {
    execFileSync("nft", ["delete", "table", "ip", table]);
    removed.push(`nft table ${table}`);
  }
  if (options.removeBridge && linkNames().includes(options.bridge)) {
    execFileSync("ip", ["link", "del", options.bridge]);
    removed.push(`bridge ${options.bridge}`);
  }
  return removed;
}
