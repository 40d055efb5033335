import { runCommand } from "./run-command.js";

export interface Ext4ImageOptions {
  /** Directory whose contents become the file system's root. */
  sourceDir: string;
  path: string;
  sizeMiB: number;
  label: string;
}

/** An ext4 image file filled from a directory (`mkfs.ext4 -d`, e2fsprogs ≥ 1.43: no mounting, no loop devices). */
export async function createExt4Image(options: Ext4ImageOptions): Promise<void> {
  await runCommand("mkfs.ext4", [
    "-q",
    "-F",
    "-L",
    options.label,
    "-d",
    options.sourceDir,
    options.path,
    `${options.sizeMiB}M`,
  ]);
}

/** Converts a raw image to a compact qcow2 image. */
export async function convertRawToQcow2(rawPath: string, qcow2Path: string): Promise<void> {
  await runCommand("qemu-img", ["convert", "-f", "raw", "-O", "qcow2", rawPath, qcow2Path]);
}

/** A copy-on-write qcow2 overlay over `backingPath`, so a VM can write without touching the shared image. */
export async function createQcow2Overlay(backingPath: string, overlayPath: string): Promise<void> {
  await runCommand("qemu-img", [
    "create",
    "-q",
    "-f",
    "qcow2",
    "-b",
    backingPath,
    "-F",
    "qcow2",
    overlayPath,
  ]);
}
