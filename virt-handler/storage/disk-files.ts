// The disk files of a VM: copy-on-write overlays of image disks, empty qcow2 disks and sparse raw files.
// Every file is made under a temporary name and renamed into place, so a crash never leaves a half-made
// disk under the final name, and an existing file (a retried prepare) is kept as it is.
import { randomBytes } from "node:crypto";
import { open, rename, rm, stat } from "node:fs/promises";
import { isAbsolute, normalize } from "node:path";
import { runCommand } from "./host-commands.js";

export type DiskFormat = "qcow2" | "raw";

export async function fileExists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** Runs `make(temporaryPath)` and renames the result to `path`; does nothing when `path` already exists. */
async function createOnce(path: string, make: (temporary: string) => Promise<void>): Promise<void> {
  if (await fileExists(path)) return;
  const temporary = `${path}.tmp-${randomBytes(4).toString("hex")}`;
  try {
    await make(temporary);
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Refuses a path that qemu-img could read as something other than a plain file name: qemu treats
 * "json:{...}" as a block-device description and "proto:..." (a ":" before any "/") as a protocol, and an
 * argument starting with "-" as an option. The paths given here are built by virt-handler under the VM's
 * directory, so an absolute, normalised path without ":" and control characters always is one; asserting
 * it (rather than prefixing "file:") keeps the name that qemu-img writes into an overlay's header a plain
 * path, which libvirt reads back as a file too.
 */
export function assertPlainFilePath(path: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  if (!isAbsolute(path) || normalize(path) !== path || path.includes(":") || /[\x00-\x1f\x7f]/.test(path)) {
    throw new Error(`refusing to give qemu-img ${JSON.stringify(path)}: not a plain absolute file path`);
  }
}

/**
 * A qcow2 overlay whose backing file is `base`. QEMU opens backing files read-only, so the base is never
 * written; `qemu-img create` reads only its header. `base` must be a file the caller checked (for a
 * qcow2: that it names no other file, see disk-format.ts): qemu-img and QEMU open whatever it names.
 */
export async function createQcow2Overlay(
  base: string,
  baseFormat: DiskFormat,
  overlay: string,
): Promise<void> {
  assertPlainFilePath(base);
  assertPlainFilePath(overlay);
  await createOnce(overlay, (temporary) =>
    runCommand("qemu-img", ["create", "-q", "-f", "qcow2", "-F", baseFormat, "-b", base, temporary]).then(
      () => {},
    ),
  );
}

/** An empty qcow2 disk of `sizeBytes` (it grows as the guest writes). */
export async function createEmptyQcow2(path: string, sizeBytes: number): Promise<void> {
  assertPlainFilePath(path);
  await createOnce(path, (temporary) =>
    runCommand("qemu-img", ["create", "-q", "-f", "qcow2", temporary, String(sizeBytes)]).then(() => {}),
  );
}

/** A sparse raw file of `sizeBytes` (hostDisk DiskOrCreate). */
export async function createSparseRawFile(path: string, sizeBytes: number): Promise<void> {
  await createOnce(path, async (temporary) => {
    const handle = await open(temporary, "wx", 0o660);
    try {
      await handle.truncate(sizeBytes);
    } finally {
      await handle.close();
    }
  });
}
