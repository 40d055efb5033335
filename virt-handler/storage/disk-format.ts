// The format of a containerDisk's disk, decided from the file's first bytes, never by qemu-img (which would
// open whatever the image names: see qcow2-header.ts). A qcow2 is used only when it names no other file;
// anything without the qcow2 magic is raw, and raw is always handed to QEMU with its format stated, so
// its content is never probed.
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { ContainerDiskError, describePathInImage } from "../container-disk/index.js";
import type { DiskFormat } from "./disk-files.js";
import {
  hasQcowMagic,
  QCOW2_HEADER_READ_BYTES,
  Qcow2HeaderError,
  qcow2Refusal,
  readQcow2Header,
} from "./qcow2-header.js";

export interface DiskFormatRequest {
  image: string;
  /** The disk's path inside the image, for messages. */
  pathInImage: string;
  /** The file to check: the one QEMU will open (the VM's pinned copy of the image's disk). */
  path: string;
  /** The format the image's manifest states, if it states one for this file. */
  declared?: DiskFormat;
}

/** The first `length` bytes of the file (fewer when it is shorter). */
async function readHead(handle: FileHandle, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

async function openRegularFile(path: string, refuse: (why: string) => Error): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw refuse("is not a regular file");
  }
  return handle;
}

/**
 * "qcow2" or "raw" for the disk at `path`; throws a ContainerDiskError (InvalidImage) for a qcow2 that names
 * a backing file or an external data file, a malformed qcow2, or a file whose content contradicts the
 * manifest's qcow2.
 */
export async function checkedDiskFormat(request: DiskFormatRequest): Promise<DiskFormat> {
  const { image, pathInImage, path, declared } = request;
  const refuse = (why: string, cause?: unknown) =>
    new ContainerDiskError(
      "InvalidImage",
      image,
      `${image}: the disk ${describePathInImage(pathInImage)} ${why}`,
      cause === undefined ? undefined : { cause },
    );
  const handle = await openRegularFile(path, refuse);
  let head: Buffer;
  try {
    head = await readHead(handle, QCOW2_HEADER_READ_BYTES);
  } finally {
    await handle.close();
  }
  // The manifest's word "raw" is kept even for qcow2 content: QEMU is told raw and reads the bytes as such.
  if (declared === "raw") return "raw";
  if (!hasQcowMagic(head)) {
    if (declared === "qcow2")
      throw refuse("is not a qcow2 image (no QFI\\xfb magic), though the manifest says qcow2");
    return "raw";
  }
  try {
    const refusal = qcow2Refusal(readQcow2Header(head));
    if (refusal !== undefined) throw refuse(`${refusal}: refused, QEMU would open it on the node`);
  } catch (error) {
    if (error instanceof Qcow2HeaderError)
      throw refuse(`is not a usable qcow2 image: ${error.message}`, error);
    throw error;
  }
  return "qcow2";
}
