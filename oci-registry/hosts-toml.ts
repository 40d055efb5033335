// containerd's registry host configuration (docs/hosts.md): `<dir>/<host[:port]>/hosts.toml`, else
// `<dir>/_default/hosts.toml`. `[host."..."]` entries are tried in file order, then `server` (or the host
// itself). Only what a pull needs is read: server, capabilities, skip_verify, override_path; `ca`, `client`,
// `header` and `proxy` are not supported and refused, so a node is never silently less strict than asked.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ImageReference } from "./image-reference.js";
import { apiHost, credentialHostOf, type RegistryEndpoint } from "./registry-endpoint.js";
import { isTomlTable, parseToml, type TomlTable, type TomlValue } from "./toml-reader.js";

export class HostsConfigError extends Error {
  override readonly name = "HostsConfigError";
}

const UNSUPPORTED_KEYS = ["ca", "client", "header", "proxy"];

/** The directories containerd looks in for a host, in its order. */
function candidateDirectories(host: string): string[] {
  const names = host.includes(":") ? [`${host.replace(":", "_")}_`, host] : [host];
  return [...names, "_default"];
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new HostsConfigError(`cannot read ${path}`, { cause: error });
  }
}

function stringList(value: TomlValue | undefined, file: string, key: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  throw new HostsConfigError(`${file}: ${key} must be a string or a list of strings`);
}

function booleanOf(value: TomlValue | undefined, file: string, key: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new HostsConfigError(`${file}: ${key} must be true or false`);
  return value;
}

interface HostEntry {
  url: string;
  table: TomlTable;
  mirror: boolean;
}

function toEndpoint(entry: HostEntry, file: string, reference: ImageReference): RegistryEndpoint | undefined {
  const where = entry.mirror ? `host."${entry.url}"` : "server";
  for (const key of UNSUPPORTED_KEYS) {
    if (entry.table[key] !== undefined)
      throw new HostsConfigError(`${file}: ${where}.${key} is not supported`);
  }
  const withScheme = /^[a-z]+:\/\//.test(entry.url) ? entry.url : `https://${entry.url}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch (error) {
    throw new HostsConfigError(`${file}: ${JSON.stringify(entry.url)} is not a URL`, { cause: error });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new HostsConfigError(`${file}: ${entry.url} is neither http:// nor https://`);
  }
  const capabilities = stringList(entry.table.capabilities, file, `${where}.capabilities`) ?? [
    "pull",
    "resolve",
  ];
  if (!capabilities.includes("pull")) return undefined;
  const path = url.pathname.replace(/\/+$/, "");
  const overridePath = booleanOf(entry.table.override_path, file, `${where}.override_path`);
  const endpoint: RegistryEndpoint = {
    origin: url.origin,
    apiRoot: overridePath ? path : path.endsWith("/v2") ? path : `${path}/v2`,
    repository: reference.repository,
    skipVerify: booleanOf(entry.table.skip_verify, file, `${where}.skip_verify`),
    canResolve: capabilities.includes("resolve"),
    servesTags: true,
    credentialHost: credentialHostOf(url.origin),
  };
  return entry.mirror ? { ...endpoint, namespace: reference.registry } : endpoint;
}

/** The file's endpoints for `reference`, in containerd's order. */
export function hostsTomlEndpoints(
  text: string,
  file: string,
  reference: ImageReference,
): RegistryEndpoint[] {
  let parsed: TomlTable;
  try {
    parsed = parseToml(text);
  } catch (error) {
    throw new HostsConfigError(`${file}: ${(error as Error).message}`, { cause: error });
  }
  const entries: HostEntry[] = [];
  const hosts = parsed.host;
  if (hosts !== undefined) {
    if (!isTomlTable(hosts)) throw new HostsConfigError(`${file}: host must be a table of host."URL" tables`);
    for (const [url, table] of Object.entries(hosts)) {
      if (!isTomlTable(table)) throw new HostsConfigError(`${file}: host."${url}" must be a table`);
      entries.push({ url, table, mirror: true });
    }
  }
  const server = parsed.server ?? `https://${apiHost(reference.registry)}`;
  if (typeof server !== "string") throw new HostsConfigError(`${file}: server must be a string`);
  entries.push({ url: server, table: parsed, mirror: false });
  return entries.flatMap((entry) => toEndpoint(entry, file, reference) ?? []);
}

/** The endpoints `<directory>` configures for the reference's host, or undefined when it has no file for it. */
export async function hostsDirectoryEndpoints(
  directory: string,
  reference: ImageReference,
): Promise<RegistryEndpoint[] | undefined> {
  for (const name of candidateDirectories(reference.registry)) {
    const file = join(directory, name, "hosts.toml");
    const text = await readIfPresent(file);
    if (text !== undefined) return hostsTomlEndpoints(text, file, reference);
  }
  return undefined;
}
