// Builds the Debian 12 cloud guest: debootstrap a tree, configure it for the cloud (guest-configuration.ts),
// make it a disk that boots on its own, and convert that to a compressed qcow2. The kernel and initrd are
// copied out too, for callers that prefer a direct kernel boot.
import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { BuildLog } from "../guest/build-log.js";
import { runCommand } from "../guest/run-command.js";
import { createBootableDisk } from "./bootable-disk.js";
import {
  CLOUD_GUEST_DISK_SIZE_MIB,
  CLOUD_GUEST_MIRROR,
  CLOUD_GUEST_PACKAGES,
  CLOUD_GUEST_PARTITION_OFFSET_BYTES,
  CLOUD_GUEST_ROOT_LABEL,
  CLOUD_GUEST_SUITE,
} from "./cloud-guest-recipe.js";
import { debootstrap } from "./debootstrap.js";
import { guestConfigurationScript } from "./guest-configuration.js";

export interface BuiltCloudGuestFiles {
  /** The bootable disk, compressed qcow2. */
  disk: string;
  kernel: string;
  initrd: string;
  kernelVersion: string;
}

/** Runs the configuration script inside the tree. */
export async function configureTree(tree: string): Promise<void> {
  // On stdin, so that a failure's message names the command, not the whole script.
  await runCommand("chroot", [tree, "/bin/sh", "-s"], {
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root" },
    input: guestConfigurationScript(),
  });
}

async function kernelVersionOf(tree: string): Promise<string> {
  const versions = (await readdir(join(tree, "boot")))
    .filter((name) => name.startsWith("vmlinuz-"))
    .map((name) => name.slice("vmlinuz-".length));
  const version = versions[0];
  if (versions.length !== 1 || !version)
    throw new Error(`expected one kernel in ${tree}/boot, found ${versions.join(", ") || "none"}`);
  return version;
}

/** Makes the disk and the boot files from a configured tree. */
export async function imageTree(
  tree: string,
  outputDir: string,
  workDir: string,
): Promise<BuiltCloudGuestFiles> {
  const kernelVersion = await kernelVersionOf(tree);
  const files: BuiltCloudGuestFiles = {
    disk: join(outputDir, "disk.qcow2"),
    kernel: join(outputDir, "vmlinuz"),
    initrd: join(outputDir, "initrd.img"),
    kernelVersion,
  };
  await mkdir(outputDir, { recursive: true });
  await copyFile(join(tree, "boot", `vmlinuz-${kernelVersion}`), files.kernel);
  await copyFile(join(tree, "boot", `initrd.img-${kernelVersion}`), files.initrd);
  const raw = join(workDir, "disk.raw");
  await createBootableDisk({
    sourceDir: tree,
    path: raw,
    sizeMiB: CLOUD_GUEST_DISK_SIZE_MIB,
    partitionOffsetBytes: CLOUD_GUEST_PARTITION_OFFSET_BYTES,
    label: CLOUD_GUEST_ROOT_LABEL,
  });
  await runCommand("qemu-img", ["convert", "-c", "-f", "raw", "-O", "qcow2", raw, files.disk]);
  return files;
}

/** Builds into `outputDir`; `workDir` (scratch, removed afterwards) holds the tree and the raw disk. */
export async function buildCloudGuest(
  outputDir: string,
  workDir: string,
  packageCacheDir: string,
  log: BuildLog,
): Promise<BuiltCloudGuestFiles> {
  const started = Date.now();
  const tree = join(workDir, "tree");
  await mkdir(workDir, { recursive: true });
  try {
    await debootstrap({
      suite: CLOUD_GUEST_SUITE,
      mirror: CLOUD_GUEST_MIRROR,
      packages: CLOUD_GUEST_PACKAGES,
      targetDir: tree,
      packageCacheDir,
    });
    log.info({ ms: Date.now() - started }, "debootstrap finished");
    await configureTree(tree);
    const files = await imageTree(tree, outputDir, workDir);
    log.info({ ms: Date.now() - started, kernelVersion: files.kernelVersion }, "built the cloud guest");
    return files;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
