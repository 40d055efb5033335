// Which of the programs virt-handler runs are installed on this node. virt-handler never installs
// one (its pod may have no route out, and the node's packages are its admin's): a node that lacks
// one says so (a node condition, and unschedulable for VMs), so VMs go where they can start. Only
// PATH is looked at, nothing is spawned, so the heartbeat repeats the check and notices an install.
//
// Not listed: qemu-system-x86_64, which only the KVM boot probe runs (without it KVM counts as
// unusable, reported by the KVM detection); QEMU itself is started by libvirt, not by virt-handler.
import { findExecutable } from "../storage/host-commands.js";
import { ISO_WRITERS } from "../storage/iso-image.js";

export interface HostTool {
  /** What virt-handler makes with it, for the node condition and the log. */
  readonly purpose: string;
  /** Programs that do the job, in order of preference: any one of them is enough. */
  readonly commands: readonly string[];
  /** The Debian packages that provide `commands`, in the same order. */
  readonly debianPackages: readonly string[];
}

/**
 * Every program virt-handler spawns (storage/disk-files.ts, storage/iso-image.ts, network/pod-network-setup.ts,
 * ../oci-registry/layer-stream.ts, through container-disk/).
 */
export const HOST_TOOLS: readonly HostTool[] = [
  { purpose: "VM disk overlays and empty disks", commands: ["qemu-img"], debianPackages: ["qemu-utils"] },
  { purpose: "cloud-init disks", commands: ISO_WRITERS, debianPackages: ["xorriso", "genisoimage"] },
  // nsenter (util-linux) is essential in Debian; ip and sysctl are not: a slim image lacked sysctl
  // (found when the virt-handler image first ran on a real kubelet).
  { purpose: "the pod network's NAT (masquerade)", commands: ["nft"], debianPackages: ["nftables"] },
  { purpose: "the pod side of a VM's network", commands: ["ip"], debianPackages: ["iproute2"] },
  { purpose: "the pod network's forwarding settings", commands: ["sysctl"], debianPackages: ["procps"] },
  // Node.js 20 has no zstd: OCI layers compressed with it are unpacked by the zstd program.
  { purpose: "zstd-compressed containerDisk layers", commands: ["zstd"], debianPackages: ["zstd"] },
];

export interface HostToolsReport {
  /** The path of the program found for each tool that is installed. */
  readonly found: readonly string[];
  /** The tools none of whose programs is on PATH. */
  readonly missing: readonly HostTool[];
}

/** Looks every tool up on `path` (default: this process's PATH). */
export async function checkHostTools(
  path = process.env.PATH ?? "",
  tools: readonly HostTool[] = HOST_TOOLS,
): Promise<HostToolsReport> {
  const found: string[] = [];
  const missing: HostTool[] = [];
  for (const tool of tools) {
    const program = await firstInstalled(tool.commands, path);
    if (program === undefined) missing.push(tool);
    else found.push(program);
  }
  return { found, missing };
}

async function firstInstalled(commands: readonly string[], path: string): Promise<string | undefined> {
  for (const command of commands) {
    const program = await findExecutable(command, path);
    if (program !== undefined) return program;
  }
  return undefined;
}

/** "qemu-img (Debian: qemu-utils) for VM disk overlays and empty disks; xorriso or genisoimage (...) for ..." */
export function describeMissingTools(missing: readonly HostTool[]): string {
  return missing
    .map(
      (tool) =>
        `${tool.commands.join(" or ")} (Debian: ${tool.debianPackages.join(" or ")}) for ${tool.purpose}`,
    )
    .join("; ");
}
