/**
 * The node's mirror files in /etc/containerd/certs.d are the host's: only those this cluster
 * wrote (dev-cluster's header, registry-mirrors.ts) are removed when it stops.
 */
import { readFile, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";

const OWN_HEADER = "# written by dev-cluster";

export async function removeOwnMirrors(hostsDir: string, hosts: readonly string[]): Promise<void> {
  for (const host of hosts) {
    const file = join(hostsDir, host, "hosts.toml");
    const text = await readFile(file, "utf8").catch(() => "");
    if (!text.startsWith(OWN_HEADER)) continue;
    await rm(file, { force: true });
    // Only if nothing else is in it.
    await rmdir(join(hostsDir, host)).catch(() => {});
  }
}
