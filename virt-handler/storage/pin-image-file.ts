// Pinning an image file for one VM: the VM's own name for exactly the inode that openImageFile() checked,
// in the VM's directory, so that publishing a new version of the image (or a file swapped into it later)
// never changes what the VM reads, and QEMU opens what was checked.
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { copyFile, link, lstat, rename, rm } from "node:fs/promises";
import { ContainerDiskError, describePathInImage, type ImageFile } from "../container-disk/index.js";

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function sameInode(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Makes `pinned`: a hard link when the image and the VM directory share a file system, else a copy.
 * link() takes a path (and links a symbolic link itself rather than its target), so the link is made
 * under a temporary name and kept only when it is the checked inode. A copy is read through the open
 * descriptor (/proc/self/fd/N), so it has the checked content whatever the path names by then.
 */
async function pinCheckedFile(file: ImageFile, pinned: string): Promise<void> {
  const temporary = `${pinned}.tmp-${randomBytes(4).toString("hex")}`;
  try {
    let linked = true;
    try {
      await link(file.hostPath, temporary);
    } catch (error) {
      if (errorCode(error) !== "EXDEV" && errorCode(error) !== "EPERM") throw error;
      linked = false;
      await copyFile(`/proc/self/fd/${file.handle.fd}`, temporary, constants.COPYFILE_EXCL);
    }
    const made = await lstat(temporary);
    const asChecked = linked ? sameInode(made, file.stats) : made.isFile() && made.size === file.stats.size;
    if (!asChecked) {
      const what = describePathInImage(file.pathInImage);
      throw new ContainerDiskError(
        "InvalidImage",
        file.image,
        `${file.image}: ${what} changed while it was pinned`,
      );
    }
    await rename(temporary, pinned);
  } finally {
    await rm(temporary, { force: true });
  }
}

export interface PinnedFile {
  path: string;
  /** Made by this call (not kept from an earlier prepare): whoever refuses it afterwards removes it. */
  created: boolean;
}

/**
 * Pins an image file for this VM at `pinned` (in the VM's directory). An existing pinned file (a retried
 * prepare) is kept, so a VM keeps the version it started with; it must be a regular file. `openFile` is
 * called only when there is nothing pinned yet; the file it opens is closed here.
 */
export async function pinImageFile(pinned: string, openFile: () => Promise<ImageFile>): Promise<PinnedFile> {
  const existing = await lstat(pinned).catch((error: unknown) => {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  });
  if (existing !== undefined) {
    if (!existing.isFile()) throw new Error(`${pinned} exists and is not a regular file`);
    return { path: pinned, created: false };
  }
  const file = await openFile();
  try {
    await pinCheckedFile(file, pinned);
  } finally {
    await file.handle.close();
  }
  return { path: pinned, created: true };
}
