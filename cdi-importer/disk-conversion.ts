// A whole image file (a downloaded qcow2, a pulled containerDisk's disk, a cloned claim's disk.img) made
// into the new disk: checked first (its format from its bytes, a qcow2's header by our own reader, its
// virtual size against the size the disk must have), then written by qemu-img into a temporary of the
// size asked for.
import type { FileHandle } from "node:fs/promises";
import { readFileHead } from "../disk-image/file-head.js";
import {
  QCOW2_HEADER_READ_BYTES,
  Qcow2HeaderError,
  qcow2Refusal,
  readQcow2Header,
} from "../disk-image/qcow2-header.js";
import type { DataDir } from "./data-dir.js";
import { detectDiskFormat, FORMAT_SNIFF_BYTES } from "./image-format.js";
import { ImportError } from "./import-error.js";
import { qemuImgConvert } from "./qemu-img.js";

/** The temporary that becomes disk.img. */
export const DISK_TEMPORARY = "disk.img";

/** CDI's refusal of an image that does not fit, with the phrase its users and tests look for. */
/** `virtualSize` may be a bound ("over N") when a stream is stopped before its end. */
export function largerPvcRequired(virtualSize: number | string, available: number): ImportError {
  return new ImportError(
    `virtual image size ${virtualSize} is larger than the reported available storage ${available}. A larger PVC is required`,
  );
}

/** The guest-visible size of a qcow2 whose header names no other file; throws the refusal otherwise. */
export function checkedQcow2VirtualSize(head: Buffer, what: string): number {
  let refusal: string | undefined;
  try {
    refusal = qcow2Refusal(readQcow2Header(head));
  } catch (error) {
    if (!(error instanceof Qcow2HeaderError)) throw error;
    throw new ImportError(`${what} is not a qcow2 image this importer accepts: ${error.message}`, {
      cause: error,
    });
  }
  if (refusal !== undefined) throw new ImportError(`${what} is refused: the qcow2 image ${refusal}`);
  // The header's `size` field (bytes 24..31): the virtual disk's size.
  const size = head.readBigUInt64BE(24);
  if (size > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ImportError(`${what} has a virtual size of ${size} bytes`);
  return Number(size);
}

export interface ConversionRequest {
  readonly data: DataDir;
  readonly source: FileHandle;
  /** Whether the file may be a qcow2 (images) or is raw whatever its bytes say (a claim's disk.img). */
  readonly accept: "qcow2-or-raw" | "raw";
  readonly imageSize: number;
  /** The file, for messages. */
  readonly what: string;
}

/** Writes the new disk as the temporary DISK_TEMPORARY of `imageSize` bytes; returns it open. */
export async function convertToDisk(request: ConversionRequest): Promise<FileHandle> {
  const { source, what, imageSize } = request;
  let format: "qcow2" | "raw" = "raw";
  let virtualSize = (await source.stat()).size;
  if (request.accept === "qcow2-or-raw") {
    const head = await readFileHead(source, QCOW2_HEADER_READ_BYTES);
    const detected = detectDiskFormat(head.subarray(0, FORMAT_SNIFF_BYTES));
    if ("refused" in detected)
      throw new ImportError(`${what} is a ${detected.refused} image, which is not supported`);
    format = detected.format;
    if (format === "qcow2") virtualSize = checkedQcow2VirtualSize(head, what);
  }
  if (virtualSize > imageSize) throw largerPvcRequired(virtualSize, imageSize);
  const target = await request.data.createTemporary(DISK_TEMPORARY);
  try {
    await target.truncate(imageSize);
    await qemuImgConvert({ sourceFormat: format, source, target });
    return target;
  } catch (error) {
    await target.close();
    throw error;
  }
}
