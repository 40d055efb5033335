// The DNS a VM is offered by DHCP: its launcher pod's, as KubeVirt's virt-launcher reads its own
// /etc/resolv.conf. virt-handler reads the pod's file through a launcher process's root
// (/proc/<pid>/root), which shows the files as the pod's processes see them, its resolv.conf
// included. The file is the kubelet's, but its content follows the VMI's dnsConfig: every value
// is checked before it goes into udhcpd's configuration, one option per line.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { LauncherNetns } from "./launcher-process.js";

export interface LauncherDns {
  /** IPv4 nameservers (DHCP option 6 carries no other). */
  servers: string[];
  /** Search domains (option 119). */
  searchDomains: string[];
}

/** Resolvers use three nameservers; DHCP's search list is bounded by its option's length. */
const MAX_SERVERS = 3;
const MAX_SEARCH_DOMAINS = 6;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** The launcher pod's resolvers; none when the pod has no resolv.conf of its own to read. */
export async function launcherDns(netns: LauncherNetns, procDir = "/proc"): Promise<LauncherDns> {
  const text = await readFile(join(procDir, String(netns.pid), "root", "etc", "resolv.conf"), "utf8").catch(
    () => "",
  );
  return parseLauncherResolvConf(text);
}

/** What of a resolv.conf DHCP can carry: IPv4 servers and valid domain names; the rest is left out. */
export function parseLauncherResolvConf(text: string): LauncherDns {
  const servers: string[] = [];
  let searchDomains: string[] = [];
  for (const line of text.split("\n")) {
    const [keyword, ...values] = line
      .replace(/[#;].*$/, "")
      .trim()
      .split(/\s+/);
    if (keyword === "nameserver" && values[0] && IPV4.test(values[0])) servers.push(values[0]);
    else if (keyword === "search" || keyword === "domain") {
      searchDomains = values.map((value) => value.replace(/\.$/, "")).filter((value) => DOMAIN.test(value));
    }
  }
  return {
    servers: [...new Set(servers)].slice(0, MAX_SERVERS),
    searchDomains: [...new Set(searchDomains)].slice(0, MAX_SEARCH_DOMAINS),
  };
}
