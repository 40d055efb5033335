// The disk files of a VM: copy-on-write overlays of image disks, empty qcow2 disks and sparse raw files.
// Every file is made under a temporary name and renamed into place, so a crash never leaves a half-made
// disk under the final name, and an existing file (a retried prepare) is kept as it is.
import { randomBytes } from "node:crypto";
import { link, open, rename, rm, stat } from "node:fs/promises";
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
 * A qcow2 overlay whose backing file is `base`. QEMU opens backing files read-only, so the base is never
 * written; `qemu-img create` reads only its header.
 */
export async function createQcow2Overlay(
  base: string,
  baseFormat: DiskFormat,
  overlay: string,
): Promise<void> {
  await createOnce(overlay, (temporary) =>
    runCommand("qemu-img", ["create", "-q", "-f", "qcow2", "-F", baseFormat, "-b", base, temporary]).then(
      () => {},
    ),
  );
}

/** An empty qcow2 disk of `sizeBytes` (it grows as the guest writes). */
export async function createEmptyQcow2(path: string, sizeBytes: number): Promise<void> {
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

/** The format qemu-img detects for an image whose format nobody told us. */
export async function detectDiskFormat(path: string): Promise<DiskFormat> {
  const info: unknown = JSON.parse(await runCommand("qemu-img", ["info", "--output=json", path]));
  const format = typeof info === "object" && info !== null && "format" in info ? info.format : undefined;
  if (format === "qcow2" || format === "raw") return format;
  throw new Error(`${path} is a ${String(format)} image; containerDisks must be qcow2 or raw`);
}

/**
 * Pins an image file for this VM: a hard link in the VM's directory, so that publishing a new version of
 * the image under the same name never changes what an existing overlay reads. Falls back to the image's
 * own path when the VM directory is on another file system.
 */
export async function pinImageFile(source: string, pinned: string): Promise<string> {
  if (await fileExists(pinned)) return pinned;
  try {
    await link(source, pinned);
    return pinned;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EXDEV" || code === "EPERM") return source;
    if (code === "EEXIST") return pinned;
    throw error;
  }
}
