// The format of a disk image, decided from the file's first bytes, never by qemu-img (which would open
// whatever the image names: see qcow2-header.ts). A qcow2 is accepted only when it names no other file;
// anything without the qcow2 magic is raw, and raw must always be handed to QEMU with its format stated, so
// that its content is never probed.
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { DiskImageError } from "./disk-image-error.js";
import { readFileHead } from "./file-head.js";
import {
  hasQcowMagic,
  QCOW2_HEADER_READ_BYTES,
  Qcow2HeaderError,
  qcow2Refusal,
  readQcow2Header,
} from "./qcow2-header.js";

export type DiskImageFormat = "qcow2" | "raw";

export interface DiskFormatRequest {
  /** The file to check: the one QEMU will open. It is opened without following a symbolic link. */
  readonly path: string;
  /** The format its owner states (a manifest's word), if any. */
  readonly declared?: DiskImageFormat;
  /** Who refuses features it does not know, named in that refusal (default "this reader"). */
  readonly reader?: string;
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
 * "qcow2" or "raw" for the file at `path`; throws a DiskImageError for a file that is not a regular file, a
 * qcow2 that names a backing file or an external data file, a malformed qcow2, or content contradicting a
 * declared qcow2. The file system's own errors (ELOOP for a symbolic link) pass through.
 */
export async function checkedDiskImageFormat(request: DiskFormatRequest): Promise<DiskImageFormat> {
  const { path, declared } = request;
  const refuse = (why: string, cause?: unknown) =>
    new DiskImageError(path, why, cause === undefined ? undefined : { cause });
  const handle = await openRegularFile(path, refuse);
  let head: Buffer;
  try {
    head = await readFileHead(handle, QCOW2_HEADER_READ_BYTES);
  } finally {
    await handle.close();
  }
  // A declared "raw" is kept even for qcow2 content: QEMU is told raw and reads the bytes as such.
  if (declared === "raw") return "raw";
  if (!hasQcowMagic(head)) {
    if (declared === "qcow2")
      throw refuse("is not a qcow2 image (no QFI\\xfb magic), though the manifest says qcow2");
    return "raw";
  }
  try {
    const refusal = qcow2Refusal(readQcow2Header(head), request.reader);
    if (refusal !== undefined) throw refuse(`${refusal}: refused, QEMU would open it on the node`);
  } catch (error) {
    if (error instanceof Qcow2HeaderError)
      throw refuse(`is not a usable qcow2 image: ${error.message}`, error);
    throw error;
  }
  return "qcow2";
}
