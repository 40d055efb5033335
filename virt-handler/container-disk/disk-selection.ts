// Which file of an unpacked image is the disk, as KubeVirt decides it: the containerDisk `path` when the
// VMI gives one ("/" for kernelBoot images: the whole image, no disk), else the only entry of /disk
// (KubeVirt's messages for none and for several). The disk must be a regular file of the image (not one of
// the symbolic links the unpacker left out), and a qcow2 must name no other file (storage/disk-format.ts).
import { lstat, readdir } from "node:fs/promises";
import { join, posix } from "node:path";
import type { UnpackedTree } from "../../oci-registry/index.js";
import { checkedDiskFormat } from "../storage/disk-format.js";
import { ContainerDiskError } from "./container-disk-source.js";
import { openImageFile } from "./image-file.js";
import { canonicalPathInImage, describePathInImage } from "./image-paths.js";

export interface DiskChoice {
  readonly disk?: string;
  readonly diskFormat?: "qcow2" | "raw";
}

/** What a pulled image's cache record keeps about /disk (found once, when the image is pulled). */
export interface DiskFacts {
  /** The disk /disk holds, when it holds exactly one good one. */
  disk?: string;
  diskFormat?: "qcow2" | "raw";
  /** Why /disk cannot be the disk (an image used with containerDisk.path only). */
  diskProblem?: string;
}

/** Where devices and FIFOs are refused while unpacking rather than left out: where the disk is. */
export const DISK_DIRECTORY = "disk";

export interface DiskRequest {
  readonly image: string;
  /** The image's file system on this node. */
  readonly root: string;
  /** Symbolic links the layers had ("/disk/x" → target): not on the file system, refused as disks. */
  readonly symlinks: ReadonlyMap<string, string>;
  /** containerDisk.path; "/" asks for no disk (kernelBoot's whole image). */
  readonly path?: string;
}

function refuse(image: string, why: string): ContainerDiskError {
  return new ContainerDiskError("InvalidImage", image, `${image}: ${why}`);
}

function refuseSymlinks(request: DiskRequest, pathInImage: string): void {
  const components = pathInImage.slice(1).split("/");
  for (let length = 1; length <= components.length; length++) {
    const prefix = `/${components.slice(0, length).join("/")}`;
    const target = request.symlinks.get(prefix);
    if (target === undefined) continue;
    const where = prefix === pathInImage ? "" : ` (through ${describePathInImage(prefix)})`;
    throw refuse(
      request.image,
      `the disk ${describePathInImage(pathInImage)}${where} is a symbolic link to ${describePathInImage(target)}, not a regular file`,
    );
  }
}

async function checkedDisk(request: DiskRequest, pathInImage: string): Promise<DiskChoice> {
  refuseSymlinks(request, pathInImage);
  const file = await openImageFile({ image: request.image, root: request.root, pathInImage, what: "disk" });
  try {
    const diskFormat = await checkedDiskFormat({ image: request.image, pathInImage, path: file.hostPath });
    return { disk: pathInImage, diskFormat };
  } finally {
    await file.handle.close();
  }
}

/** The only entry of /disk, or KubeVirt's refusal. */
async function onlyDiskEntry(request: DiskRequest): Promise<string> {
  const noDisk = () => refuse(request.image, "no file found in folder /disk, no disk present");
  if (request.symlinks.has("/disk")) throw refuse(request.image, "/disk is a symbolic link, not a directory");
  const stats = await lstat(join(request.root, "disk")).catch(() => undefined);
  if (stats === undefined) throw noDisk();
  if (!stats.isDirectory()) throw refuse(request.image, "/disk is not a directory");
  const names = new Set(await readdir(join(request.root, "disk")));
  for (const link of request.symlinks.keys()) {
    if (posix.dirname(link) === "/disk") names.add(posix.basename(link));
  }
  if (names.size > 1)
    throw refuse(request.image, "more than one file found in folder /disk, only one disk is allowed");
  const [name] = names;
  if (name === undefined) throw noDisk();
  return `/disk/${name}`;
}

export async function chooseDisk(request: DiskRequest): Promise<DiskChoice> {
  if (request.path === "/") return {};
  const pathInImage =
    request.path === undefined
      ? await onlyDiskEntry(request)
      : canonicalPathInImage(request.image, request.path);
  return checkedDisk(request, pathInImage);
}

/**
 * The image's /disk disk, or why it has none: kept, not thrown, since a VMI naming containerDisk.path does
 * not use /disk, so the image may still serve.
 */
export async function diskFacts(unpacked: UnpackedTree): Promise<DiskFacts> {
  try {
    const choice = await chooseDisk(unpacked);
    const facts: DiskFacts = {};
    if (choice.disk !== undefined) facts.disk = choice.disk;
    if (choice.diskFormat !== undefined) facts.diskFormat = choice.diskFormat;
    return facts;
  } catch (error) {
    if (!(error instanceof ContainerDiskError)) throw error;
    return { diskProblem: error.message };
  }
}
