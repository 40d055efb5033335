// The test guest as a disk that boots by itself, as the disks of KubeVirt's demo images do
// (quay.io/kubevirt/cirros-container-disk-demo): SeaBIOS runs SYSLINUX from a FAT file system that
// fills the disk (no partition table: SYSLINUX's boot sector is the disk's first sector), which loads
// the guest's kernel and initramfs. Without root= the guest stays in its initramfs: banner, NoCloud
// user-data on the serial console, a shell. The stand-in for KubeVirt's own example images.
// mkfs.vfat (dosfstools), mtools and syslinux work on the image file: nothing is mounted.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_GUEST_KERNEL_ARGS } from "./ensure-test-guest.js";
import { runCommand } from "./run-command.js";

const DISK_MIB = 48;

/** Writes `output` (qcow2) from the guest's kernel and initramfs. */
export async function buildBootableDisk(
  guest: { kernel: string; initrd: string },
  output: string,
): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), "kubevirt-ts-bootable-"));
  try {
    const raw = join(work, "disk.raw");
    await runCommand("truncate", ["-s", `${DISK_MIB}M`, raw]);
    await runCommand("mkfs.vfat", ["-n", "GUEST-BOOT", raw]);
    const config = join(work, "syslinux.cfg");
    await writeFile(
      config,
      [
        "DEFAULT guest",
        "PROMPT 0",
        "TIMEOUT 1",
        "LABEL guest",
        "  KERNEL /vmlinuz",
        "  INITRD /initrd.gz",
        `  APPEND ${TEST_GUEST_KERNEL_ARGS}`,
        "",
      ].join("\n"),
    );
    for (const [file, name] of [
      [guest.kernel, "vmlinuz"],
      [guest.initrd, "initrd.gz"],
      [config, "syslinux.cfg"],
    ]) {
      await runCommand("mcopy", ["-i", raw, file ?? "", `::/${name}`]);
    }
    await runCommand("syslinux", ["--install", raw]);
    await runCommand("qemu-img", ["convert", "-f", "raw", "-O", "qcow2", raw, output]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
