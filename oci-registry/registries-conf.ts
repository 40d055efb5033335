// containers-registries.conf(5) version 2, the part a pull needs: `[[registry]]` with prefix, location,
// insecure, blocked, mirror-by-digest-only, and its `[[registry.mirror]]` list (location, insecure,
// pull-from-mirror). The longest matching prefix wins; mirrors are tried in order, then the location.
// An insecure endpoint is tried over https without verification, then over plain http.
import type { ImageReference } from "./image-reference.js";
import { apiHost, credentialHostOf, type RegistryEndpoint } from "./registry-endpoint.js";
import { isTomlTable, parseToml, type TomlTable, type TomlValue } from "./toml-reader.js";

export class RegistriesConfError extends Error {
  override readonly name = "RegistriesConfError";
}

export type RegistriesConfDecision =
  | { kind: "endpoints"; endpoints: RegistryEndpoint[] }
  | { kind: "blocked"; prefix: string }
  | { kind: "unmatched" };

interface RegistryEntry {
  prefix: string;
  location: string;
  insecure: boolean;
  blocked: boolean;
  mirrorByDigestOnly: boolean;
  mirrors: { location: string; insecure: boolean; pullFromMirror: "all" | "digest-only" | "tag-only" }[];
}

function field(
  table: TomlTable,
  key: string,
  type: "string" | "boolean",
  file: string,
): TomlValue | undefined {
  const value = table[key];
  if (value !== undefined && typeof value !== type)
    throw new RegistriesConfError(`${file}: ${key} must be a ${type}`);
  return value;
}

function readMirror(table: TomlValue, file: string): RegistryEntry["mirrors"][number] {
  if (!isTomlTable(table)) throw new RegistriesConfError(`${file}: [[registry.mirror]] must be tables`);
  const location = field(table, "location", "string", file);
  if (typeof location !== "string" || location === "")
    throw new RegistriesConfError(`${file}: a mirror has no location`);
  const pull = field(table, "pull-from-mirror", "string", file) ?? "all";
  if (pull !== "all" && pull !== "digest-only" && pull !== "tag-only") {
    throw new RegistriesConfError(`${file}: pull-from-mirror must be all, digest-only or tag-only`);
  }
  return { location, insecure: field(table, "insecure", "boolean", file) === true, pullFromMirror: pull };
}

function readEntry(table: TomlValue, file: string): RegistryEntry {
  if (!isTomlTable(table)) throw new RegistriesConfError(`${file}: [[registry]] must be tables`);
  const location = (field(table, "location", "string", file) as string | undefined) ?? "";
  const prefix = (field(table, "prefix", "string", file) as string | undefined) ?? location;
  if (prefix === "") throw new RegistriesConfError(`${file}: a [[registry]] has neither prefix nor location`);
  const mirrors = table.mirror ?? [];
  if (!Array.isArray(mirrors))
    throw new RegistriesConfError(`${file}: registry.mirror must be [[registry.mirror]]`);
  return {
    prefix,
    location: location === "" ? prefix : location,
    insecure: field(table, "insecure", "boolean", file) === true,
    blocked: field(table, "blocked", "boolean", file) === true,
    mirrorByDigestOnly: field(table, "mirror-by-digest-only", "boolean", file) === true,
    mirrors: mirrors.map((mirror) => readMirror(mirror, file)),
  };
}

export function parseRegistriesConf(text: string, file: string): RegistryEntry[] {
  let parsed: TomlTable;
  try {
    parsed = parseToml(text);
  } catch (error) {
    throw new RegistriesConfError(`${file}: ${(error as Error).message}`, { cause: error });
  }
  if (parsed.registries !== undefined) {
    throw new RegistriesConfError(
      `${file}: version 1 [registries.*] tables are not supported, use [[registry]]`,
    );
  }
  const entries = parsed.registry ?? [];
  if (!Array.isArray(entries)) throw new RegistriesConfError(`${file}: registry must be [[registry]] tables`);
  return entries.map((entry) => readEntry(entry, file));
}

/** How much of "host/repository" the prefix matches (its length), or -1. */
function matchLength(prefix: string, name: string): number {
  if (prefix.startsWith("*.")) {
    const host = name.split("/")[0] ?? "";
    return host.endsWith(prefix.slice(1)) ? prefix.length : -1;
  }
  if (!name.startsWith(prefix)) return -1;
  const next = name[prefix.length];
  return next === undefined || next === "/" ? prefix.length : -1;
}

/** "host[/path]" → an endpoint serving `repository`, over https (and http after it when insecure). */
function locationEndpoints(location: string, rest: string, insecure: boolean): RegistryEndpoint[] {
  const slash = location.indexOf("/");
  const host = apiHost(slash < 0 ? location : location.slice(0, slash));
  const path = slash < 0 ? "" : location.slice(slash + 1);
  const repository = [path, rest].filter((part) => part !== "").join("/");
  const schemes = insecure ? ["https", "http"] : ["https"];
  return schemes.map((scheme) => ({
    origin: `${scheme}://${host}`,
    apiRoot: "/v2",
    repository,
    skipVerify: insecure,
    canResolve: true,
    servesTags: true,
    credentialHost: credentialHostOf(`https://${host}`),
  }));
}

export function registriesConfDecision(
  entries: readonly RegistryEntry[],
  reference: ImageReference,
): RegistriesConfDecision {
  const name = `${reference.registry}/${reference.repository}`;
  let best: RegistryEntry | undefined;
  let bestLength = -1;
  for (const entry of entries) {
    const length = matchLength(entry.prefix, name);
    if (length > bestLength) {
      best = entry;
      bestLength = length;
    }
  }
  if (best === undefined) return { kind: "unmatched" };
  if (best.blocked) return { kind: "blocked", prefix: best.prefix };
  const rest = best.prefix.startsWith("*.") ? name.slice(name.indexOf("/") + 1) : name.slice(bestLength + 1);
  const location = best.prefix.startsWith("*.") ? (name.split("/")[0] ?? "") : best.location;
  const byDigest = reference.digest !== undefined;
  const endpoints: RegistryEndpoint[] = [];
  for (const mirror of best.mirrors) {
    const digestOnly = best.mirrorByDigestOnly || mirror.pullFromMirror === "digest-only";
    if (digestOnly && !byDigest) continue;
    if (mirror.pullFromMirror === "tag-only" && byDigest) continue;
    endpoints.push(...locationEndpoints(mirror.location, rest, mirror.insecure));
  }
  endpoints.push(...locationEndpoints(location, rest, best.insecure));
  return { kind: "endpoints", endpoints };
}
