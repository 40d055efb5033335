// The dev cluster's image registry: Debian's docker-registry under <data dir>/registry, and
// containerd hosts.toml files under <data dir>/registry-hosts that send pulls of the public
// registries KubeVirt's manifests name (quay.io/kubevirt/...) to it, where stand-ins are pushed.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import { writeRegistryMirrors } from "./registry-mirrors.js";
import { startRegistry } from "./start-registry.js";

/**
 * The registries sent to the dev registry. `registry:5000` is the name KubeVirt's own examples and
 * CI give their cluster registry (`docker://registry:5000/kubevirt/alpine-container-disk-demo:devel`),
 * so those manifests pull from here as they are written.
 */
export const MIRRORED_HOSTS = [
  "localhost:5000",
  "registry:5000",
  "quay.io",
  "docker.io",
  "registry.k8s.io",
] as const;

export interface DevRegistry {
  readonly address: string;
  readonly url: string;
  /** containerd `config_path` directory: one `<host>/hosts.toml` per mirrored host. */
  readonly hostsDir: string;
  /** The lines the up banner prints. */
  readonly banner: string;
  stop(): Promise<void>;
}

export async function startDevRegistry(options: {
  dataDir: string;
  address: string;
  /**
   * The address the nodes' pods reach the registry at, on the registry's port (the node bridge's,
   * where dev-cluster up relays it, since the registry listens on the host's loopback); default the
   * registry's own.
   */
  nodeHost?: string;
  log: Logger;
}): Promise<DevRegistry> {
  const registry = await startRegistry({
    dataDir: join(options.dataDir, "registry"),
    address: options.address,
    log: options.log,
  }).catch((error: unknown) => {
    throw new Error(
      `the image registry did not start at ${options.address}` +
        " (another dev cluster's? give --registry-address 127.0.0.1:0 or --no-registry)",
      { cause: error },
    );
  });
  try {
    const hostsDir = join(options.dataDir, "registry-hosts");
    // Written afresh: a host dropped from the list must stop being mirrored.
    await rm(hostsDir, { recursive: true, force: true });
    const port = registry.address.slice(registry.address.lastIndexOf(":") + 1);
    const endpoint = options.nodeHost ? `http://${options.nodeHost}:${port}` : registry.url;
    await writeRegistryMirrors(hostsDir, { mirrorHosts: MIRRORED_HOSTS, endpoint });
    const banner =
      `  image registry: ${registry.url} (the nodes pull ${MIRRORED_HOSTS.join(", ")} from ${endpoint}; ${hostsDir})\n` +
      `  skopeo copy --dest-tls-verify=false oci:<dir>:<tag> docker://${registry.address}/<name>:<tag>`;
    return { address: registry.address, url: registry.url, hostsDir, banner, stop: () => registry.stop() };
  } catch (error) {
    await registry.stop();
    throw error;
  }
}
