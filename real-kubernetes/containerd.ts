/**
 * containerd (Debian's) as the node's container runtime, with a configuration of its own under
 * the data directory: runc with cgroupfs (this host's cgroup v1 hierarchy), the CNI bridge from
 * Debian's containernetworking-plugins, the locally built pause image as the sandbox, and the
 * node's registry mirrors in /etc/containerd/certs.d, where virt-handler reads them too.
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { CONTAINERD_HOSTS_DIR, POD_BRIDGE, POD_CIDR } from "./layout.js";
import type { ProcessSpec } from "./supervised-process.js";
import { unmountBelow } from "./unmount.js";

const run = promisify(execFile);
const CNI_PLUGINS_DIR = "/usr/lib/cni";
/** The namespace the CRI plugin keeps Kubernetes' containers in. */
const CRI_NAMESPACE = "k8s.io";

export interface ContainerdPaths {
  readonly dir: string;
  readonly socket: string;
  readonly config: string;
  readonly cniConfDir: string;
  readonly cniStateDir: string;
}

export function containerdPaths(containerdDir: string, cniDir: string): ContainerdPaths {
  return {
    dir: containerdDir,
    socket: join(containerdDir, "containerd.sock"),
    config: join(containerdDir, "config.toml"),
    cniConfDir: join(cniDir, "net.d"),
    cniStateDir: join(cniDir, "ipam"),
  };
}

export function containerdConfigToml(paths: ContainerdPaths, sandboxImage: string): string {
  const cri = 'plugins."io.containerd.grpc.v1.cri"';
  return [
    "version = 2",
    `root = "${join(paths.dir, "root")}"`,
    `state = "${join(paths.dir, "state")}"`,
    "",
    "[grpc]",
    `  address = "${paths.socket}"`,
    "",
    `[${cri}]`,
    `  sandbox_image = "${sandboxImage}"`,
    // The kubelet asks for oom_score_adj -998 for sandboxes and -997 for Guaranteed pods; this
    // host refuses any score below containerd's own, so the scores are clamped to it.
    "  restrict_oom_score_adj = true",
    // Pod network namespaces under this containerd's state directory, not the host's
    // /var/run/netns: teardown finds exactly its own.
    "  netns_mounts_under_state_dir = true",
    `  [${cri}.containerd]`,
    '    snapshotter = "overlayfs"',
    '    default_runtime_name = "runc"',
    `    [${cri}.containerd.runtimes.runc]`,
    '      runtime_type = "io.containerd.runc.v2"',
    `      [${cri}.containerd.runtimes.runc.options]`,
    "        SystemdCgroup = false",
    `  [${cri}.cni]`,
    `    bin_dir = "${CNI_PLUGINS_DIR}"`,
    `    conf_dir = "${paths.cniConfDir}"`,
    `  [${cri}.registry]`,
    `    config_path = "${CONTAINERD_HOSTS_DIR}"`,
    "",
  ].join("\n");
}

/** The bridge CNI network: host-local addresses from the pod CIDR, no masquerade (nothing leaves the node). */
export function cniConflist(paths: ContainerdPaths): string {
  const conflist = {
    cniVersion: "0.4.0",
    name: "kubevirt-ts-pods",
    plugins: [
      {
        type: "bridge",
        bridge: POD_BRIDGE,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: "host-local",
          ranges: [[{ subnet: POD_CIDR }]],
          routes: [{ dst: "0.0.0.0/0" }],
          dataDir: paths.cniStateDir,
        },
      },
      { type: "portmap", capabilities: { portMappings: true } },
      { type: "loopback" },
    ],
  };
  return `${JSON.stringify(conflist, null, 2)}\n`;
}

export async function writeContainerdFiles(paths: ContainerdPaths, sandboxImage: string): Promise<void> {
  await mkdir(paths.cniConfDir, { recursive: true });
  await writeFile(paths.config, containerdConfigToml(paths, sandboxImage));
  await writeFile(join(paths.cniConfDir, "10-kubevirt-ts.conflist"), cniConflist(paths));
}

export function containerdSpec(paths: ContainerdPaths): ProcessSpec {
  return {
    name: "containerd",
    command: "containerd",
    args: ["--config", paths.config],
    ready: async () => {
      await ctr(paths, ["version"]);
      return true;
    },
  };
}

async function ctr(paths: ContainerdPaths, args: readonly string[]): Promise<string> {
  const { stdout } = await run("ctr", ["--address", paths.socket, "--namespace", CRI_NAMESPACE, ...args]);
  return stdout;
}

/**
 * Ends every container the kubelet left (the shims outlive containerd): run once the kubelet is
 * stopped, before containerd is.
 */
export async function removeAllContainers(paths: ContainerdPaths): Promise<void> {
  const ids = (await ctr(paths, ["containers", "list", "--quiet"]).catch(() => ""))
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  for (const id of ids) {
    await ctr(paths, ["tasks", "kill", "--signal", "SIGKILL", id]).catch(() => {});
  }
  for (const id of ids) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const removed = await ctr(paths, ["tasks", "delete", "--force", id])
        .then(() => true)
        .catch((error: { stderr?: string }) => /not found/.test(error.stderr ?? ""));
      if (removed) break;
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
    await ctr(paths, ["containers", "delete", id]).catch(() => {});
  }
}

/**
 * Releases the pods' network namespaces (and so their veths) and forgets their addresses: the
 * containers were killed without the CRI's sandbox teardown, so CNI's DEL never ran.
 */
export async function releasePodNetworks(paths: ContainerdPaths): Promise<void> {
  await unmountBelow(join(paths.dir, "state"));
  await rm(join(paths.dir, "state", "netns"), { recursive: true, force: true });
  await rm(paths.cniStateDir, { recursive: true, force: true });
}

/** Imports an OCI archive into the CRI namespace (the pause image, before any registry runs). */
export async function importImage(paths: ContainerdPaths, archive: string): Promise<void> {
  await ctr(paths, ["images", "import", archive]);
}
