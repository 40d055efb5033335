import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CachedPod } from "../kinds.js";

/** kubelet's --cluster-dns and --cluster-domain. */
export interface ClusterDnsSettings {
  nameservers: readonly string[];
  domain: string;
}

const DEFAULT_DOMAIN = "cluster.local";
/** Where `ip netns exec` finds the files it mounts over /etc for processes of a namespace. */
const ETC_NETNS = "/etc/netns";
/** Resolvers read at most three nameservers; kubelet keeps 32 search domains. */
const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;

interface ResolverConfig {
  nameservers: string[];
  searches: string[];
  options: string[];
}

/**
 * The pod's resolv.conf as kubelet writes it, by `dnsPolicy`:
 * - `ClusterFirst` (the default): the cluster's DNS, the search path `NS.svc.DOMAIN svc.DOMAIN
 *   DOMAIN` before the node's own search domains, `ndots:5`;
 * - `Default`: the node's resolv.conf (undefined: the node's file is what the pod reads);
 * - `None`: only `dnsConfig`.
 * `dnsConfig` is merged into each (nameservers and searches appended, options by name).
 * Host-network pods read the node's file: they have no namespace to give their own.
 * Without a cluster DNS, `ClusterFirst` is `Default`, as kubelet does.
 */
export function podResolvConf(
  pod: CachedPod,
  cluster: ClusterDnsSettings | undefined,
  nodeResolvConf: string,
): string | undefined {
  // Without a cluster DNS, kubelet falls back from ClusterFirst to the node's resolver.
  const policy =
    !cluster && pod.spec?.dnsPolicy !== "None" ? "Default" : (pod.spec?.dnsPolicy ?? "ClusterFirst");
  const node = parseResolvConf(nodeResolvConf);
  let base: ResolverConfig;
  if (policy === "None") base = { nameservers: [], searches: [], options: [] };
  else if (policy === "Default") base = node;
  else if (cluster) {
    const namespace = pod.metadata?.namespace ?? "default";
    const domain = cluster.domain;
    base = {
      nameservers: [...cluster.nameservers],
      searches: [`${namespace}.svc.${domain}`, `svc.${domain}`, domain, ...node.searches],
      options: ["ndots:5"],
    };
  } else base = node;
  const extra = pod.spec?.dnsConfig;
  if (policy === "Default" && !extra) return undefined;
  const options = new Map(base.options.map((option) => [option.split(":")[0] ?? option, option]));
  for (const option of extra?.options ?? []) {
    if (option.name)
      options.set(option.name, option.value !== undefined ? `${option.name}:${option.value}` : option.name);
  }
  const config: ResolverConfig = {
    nameservers: unique([...base.nameservers, ...(extra?.nameservers ?? [])]).slice(0, MAX_NAMESERVERS),
    searches: unique([...base.searches, ...(extra?.searches ?? [])]).slice(0, MAX_SEARCHES),
    options: [...options.values()],
  };
  return [
    ...(config.searches.length > 0 ? [`search ${config.searches.join(" ")}`] : []),
    ...config.nameservers.map((server) => `nameserver ${server}`),
    ...(config.options.length > 0 ? [`options ${config.options.join(" ")}`] : []),
    "",
  ].join("\n");
}

/**
 * kubelet's managed /etc/hosts: localhost, the pod's address under its hostname (and its FQDN
 * when it names a subdomain), then `hostAliases`.
 */
export function podHostsFile(pod: CachedPod, podIP: string, domain: string): string {
  const hostname = pod.spec?.hostname || pod.metadata?.name || "localhost";
  const subdomain = pod.spec?.subdomain;
  const namespace = pod.metadata?.namespace ?? "default";
  const names = subdomain ? `${hostname}.${subdomain}.${namespace}.svc.${domain}\t${hostname}` : hostname;
  const lines = [
    "# Kubernetes-managed hosts file.",
    "127.0.0.1\tlocalhost",
    "::1\tlocalhost ip6-localhost ip6-loopback",
    "fe00::0\tip6-localnet",
    "fe00::0\tip6-mcastprefix",
    "fe00::1\tip6-allnodes",
    "fe00::2\tip6-allrouters",
    `${podIP}\t${names}`,
  ];
  const aliases = pod.spec?.hostAliases ?? [];
  if (aliases.length > 0) lines.push("", "# Entries added by HostAliases.");
  for (const alias of aliases) {
    if (alias.ip && alias.hostnames?.length) lines.push(`${alias.ip}\t${alias.hostnames.join("\t")}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Writes the pod's resolv.conf and hosts where `ip netns exec` mounts them over the node's for
 * the pod's processes (containers and probes run through it): each pod reads its own files,
 * though all share the node's file system.
 */
export async function writePodEtcFiles(
  netns: string,
  pod: CachedPod,
  podIP: string,
  cluster: ClusterDnsSettings | undefined,
): Promise<void> {
  const dir = join(ETC_NETNS, netns);
  await mkdir(dir, { recursive: true });
  const resolvConf = podResolvConf(pod, cluster, readNodeResolvConf());
  if (resolvConf !== undefined) await writeFile(join(dir, "resolv.conf"), resolvConf);
  else await rm(join(dir, "resolv.conf"), { force: true });
  await writeFile(join(dir, "hosts"), podHostsFile(pod, podIP, cluster?.domain ?? DEFAULT_DOMAIN));
}

export async function removePodEtcFiles(netns: string): Promise<void> {
  await rm(join(ETC_NETNS, netns), { recursive: true, force: true });
}

function readNodeResolvConf(): string {
  try {
    return readFileSync("/etc/resolv.conf", "utf8");
  } catch {
    return "";
  }
}

export function parseResolvConf(text: string): ResolverConfig {
  const config: ResolverConfig = { nameservers: [], searches: [], options: [] };
  for (const line of text.split("\n")) {
    const [keyword, ...values] = line
      .replace(/[#;].*$/, "")
      .trim()
      .split(/\s+/);
    if (keyword === "nameserver" && values[0]) config.nameservers.push(values[0]);
    else if (keyword === "search" || keyword === "domain") config.searches = values;
    else if (keyword === "options") config.options.push(...values);
  }
  return config;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
