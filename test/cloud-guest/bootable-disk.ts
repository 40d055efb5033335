// Turns a root tree into a disk that a PC BIOS boots on its own: an MBR partition table with one active
// ext4 partition (filled with `mkfs.ext4 -d`, no copying through a mount), syslinux's MBR code, and
// extlinux installed in /boot/extlinux (the only step that needs the file system mounted).
import { mkdtemp, open, readFile, rm, rmdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../guest/run-command.js";

/** syslinux-common's MBR boot code: it loads the active partition's boot sector. */
const SYSLINUX_MBR = "/usr/lib/syslinux/mbr/mbr.bin";
const SECTOR_BYTES = 512;
/** The FAT-style "hidden sectors" field of extlinux's boot sector: where the partition starts. */
const HIDDEN_SECTORS_OFFSET = 0x1c;

export interface BootableDiskOptions {
  sourceDir: string;
  /** The raw disk written. */
  path: string;
  sizeMiB: number;
  partitionOffsetBytes: number;
  label: string;
}

async function createSparseFile(path: string, bytes: number): Promise<void> {
  const file = await open(path, "w");
  try {
    await file.truncate(bytes);
  } finally {
    await file.close();
  }
}

async function writeAt(path: string, data: Buffer, position: number): Promise<void> {
  const file = await open(path, "r+");
  try {
    await file.write(data, 0, data.length, position);
  } finally {
    await file.close();
  }
}

async function readAt(path: string, length: number, position: number): Promise<Buffer> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    await file.read(buffer, 0, length, position);
    return buffer;
  } finally {
    await file.close();
  }
}

/** Mounts the partition through a loop device just long enough to install extlinux into it. */
async function installExtlinux(disk: string, offsetBytes: number): Promise<void> {
  const mountPoint = await mkdtemp(join(tmpdir(), "cloud-guest-mnt-"));
  await runCommand("mount", ["-o", `loop,offset=${offsetBytes}`, "-t", "ext4", disk, mountPoint]);
  try {
    await runCommand("extlinux", ["--install", join(mountPoint, "boot/extlinux")]);
  } finally {
    await runCommand("umount", [mountPoint]);
    await rmdir(mountPoint);
  }
  // extlinux read the start from the loop device (0); the MBR code hands over the real one, but the
  // boot sector's own copy should not lie.
  const hidden = Buffer.alloc(4);
  hidden.writeUInt32LE(offsetBytes / SECTOR_BYTES);
  await writeAt(disk, hidden, offsetBytes + HIDDEN_SECTORS_OFFSET);
}

export async function createBootableDisk(options: BootableDiskOptions): Promise<void> {
  const diskBytes = options.sizeMiB * 1024 * 1024;
  const startSector = options.partitionOffsetBytes / SECTOR_BYTES;
  const partitionKiB = (diskBytes - options.partitionOffsetBytes) / 1024;
  await rm(options.path, { force: true });
  await createSparseFile(options.path, diskBytes);
  await runCommand("sfdisk", ["--quiet", "--no-reread", "--no-tell-kernel", options.path], {
    input: `label: dos\nstart=${startSector}, type=83, bootable\n`,
  });
  // 64bit is off because syslinux's ext4 reader predates it.
  await runCommand("mkfs.ext4", [
    ...["-q", "-F", "-L", options.label, "-O", "^64bit"],
    ...["-E", `offset=${options.partitionOffsetBytes}`, "-d", options.sourceDir],
    options.path,
    `${partitionKiB}k`,
  ]);
  await installExtlinux(options.path, options.partitionOffsetBytes);
  const mbr = await readFile(SYSLINUX_MBR);
  // Only the boot code: the partition table after byte 440 stays as sfdisk wrote it.
  await writeAt(options.path, mbr.subarray(0, 440), 0);
  const signature = await readAt(options.path, 2, 510);
  if (signature.readUInt16LE() !== 0xaa55)
    throw new Error(`${options.path} has no MBR signature after writing the boot code`);
}
