// containerd `hosts.toml` files (containerd docs/hosts.md) that send pulls of some registries to
// the dev cluster's registry: `quay.io/kubevirt/...` then resolves to a stand-in pushed locally.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface RegistryMirrorsOptions {
  /** Registry hosts as image references name them: "localhost:5000", "registry:5000", "quay.io". */
  readonly mirrorHosts: readonly string[];
  /** Where pulls go instead, with its scheme: "http://127.0.0.1:5000". */
  readonly endpoint: string;
}

export class RegistryMirrorsError extends Error {
  override readonly name = "RegistryMirrorsError";
  readonly reason = "BadMirrorConfig";
}

/** A host, optionally with a port: it names a directory, so no slashes and no dot-only names. */
const HOST = /^(?!\.+(:|$))[A-Za-z0-9._-]+(:\d{1,5})?$/;

/** Writes `<hostsDir>/<host>/hosts.toml` per host; returns the files written. */
export async function writeRegistryMirrors(
  hostsDir: string,
  options: RegistryMirrorsOptions,
): Promise<string[]> {
  if (!/^https?:\/\/[^/\s"]+$/.test(options.endpoint)) {
    throw new RegistryMirrorsError(`mirror endpoint ${options.endpoint}: expected http(s)://host[:port]`);
  }
  const written: string[] = [];
  for (const host of options.mirrorHosts) {
    if (!HOST.test(host))
      throw new RegistryMirrorsError(`mirror host ${JSON.stringify(host)}: expected host[:port]`);
    const dir = join(hostsDir, host);
    await mkdir(dir, { recursive: true });
    const path = join(dir, "hosts.toml");
    await writeFile(path, hostsToml(host, options.endpoint));
    written.push(path);
  }
  return written;
}

export function hostsToml(host: string, endpoint: string): string {
  return [
    `# written by dev-cluster: pulls of ${host}/... go to the dev cluster's registry`,
    `server = "${endpoint}"`,
    "",
    `[host."${endpoint}"]`,
    `  capabilities = ["pull", "resolve"]`,
    "",
  ].join("\n");
}
