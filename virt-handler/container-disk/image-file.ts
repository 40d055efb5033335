// Opening a file of an image (a disk, a kernel, an initrd) so that what is opened is a regular file inside
// the image's root, whatever the image contains: image content is untrusted, and a symbolic link
// (`disk.qcow2 -> /etc/shadow`, `disk -> /`), a device or a FIFO placed in it must not reach the host.
//
// Node has no openat(), so the check is made in three ways that together leave no way out:
// 1. every component is lstat()ed from the root down: directories that are not symbolic links, then a
//    regular file (this gives the user a message that names what was found);
// 2. the file is opened with O_NOFOLLOW (a symbolic link swapped in as the last component fails) and
//    O_NONBLOCK (a FIFO swapped in cannot hang the open), and fstat() must show the inode lstat() saw;
// 3. the kernel's own name for the opened file (/proc/self/fd/N) must be the path we built under the
//    root's real path: had any directory been swapped for a symbolic link, the name would differ.
// Callers use the open handle (or a hard link verified against its inode), never the path again.
import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { join } from "node:path";
import { ContainerDiskError } from "./container-disk-source.js";
import { describePathInImage, PATH_MAX_BYTES, pathInImageComponents } from "./image-paths.js";

/** A regular file of an image, open for reading. Close it when done. */
export interface ImageFile {
  readonly image: string;
  /** As the VMI or the manifest wrote it. */
  readonly pathInImage: string;
  /** Where it was found on the host (under the real path of the image's root). */
  readonly hostPath: string;
  readonly handle: FileHandle;
  /** fstat() of `handle`: a regular file. */
  readonly stats: Stats;
}

export interface ImageFileRequest {
  image: string;
  /** The host directory holding the image's file system. */
  root: string;
  pathInImage: string;
  /** What the file is for ("disk", "kernel"), for messages. */
  what: string;
}

function describeKind(stats: Stats): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "of an unknown kind";
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** lstat() that says "missing" instead of throwing ENOENT/ENOTDIR. */
async function lstatOrMissing(path: string): Promise<Stats | "missing"> {
  try {
    return await lstat(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return "missing";
    throw error;
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

type Refuse = (why: string, cause?: unknown) => ContainerDiskError;

/** lstat()s each component from the real root down; returns the leaf's path and its stats (a regular file). */
async function walkFromRoot(
  realRoot: string,
  components: readonly string[],
  refuse: Refuse,
): Promise<{ path: string; stats: Stats }> {
  let current = realRoot;
  for (const [index, component] of components.entries()) {
    current = join(current, component);
    const stats = await lstatOrMissing(current);
    if (stats === "missing") throw refuse("is not in the image");
    if (index === components.length - 1) {
      if (!stats.isFile()) throw refuse(`is ${describeKind(stats)}, not a regular file`);
      return { path: current, stats };
    }
    if (!stats.isDirectory()) {
      const inside = `/${components.slice(0, index + 1).join("/")}`;
      throw refuse(`cannot be used: ${inside} is ${describeKind(stats)}, not a directory`);
    }
  }
  throw refuse("names no file");
}

export async function openImageFile(request: ImageFileRequest): Promise<ImageFile> {
  const { image, root, pathInImage, what } = request;
  const components = pathInImageComponents(image, pathInImage);
  const refuse: Refuse = (why, cause) =>
    new ContainerDiskError(
      "InvalidImage",
      image,
      `${image}: the ${what} ${describePathInImage(pathInImage)} ${why}`,
      cause === undefined ? undefined : { cause },
    );
  const rootStats = await lstatOrMissing(root);
  if (rootStats === "missing" || !rootStats.isDirectory()) {
    throw new ContainerDiskError("InvalidImage", image, `${image} has no file system directory`);
  }
  const realRoot = await realpath(root);
  if (Buffer.byteLength(join(realRoot, ...components)) >= PATH_MAX_BYTES) {
    throw refuse("is too long a path on this node");
  }
  const leaf = await walkFromRoot(realRoot, components, refuse);
  let handle: FileHandle;
  try {
    handle = await open(leaf.path, OPEN_FLAGS);
  } catch (error) {
    if (errorCode(error) === "ELOOP") throw refuse("is a symbolic link, not a regular file", error);
    throw refuse("cannot be opened", error);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== leaf.stats.ino || opened.dev !== leaf.stats.dev) {
      throw refuse("changed while it was being opened");
    }
    const openedName = await readlink(`/proc/self/fd/${handle.fd}`);
    if (openedName !== leaf.path) throw refuse("was reached through a symbolic link while being opened");
    return { image, pathInImage, hostPath: leaf.path, handle, stats: opened };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
