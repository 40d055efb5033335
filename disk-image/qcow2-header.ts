// A reader of the qcow2 header (QEMU's docs/interop/qcow2.txt) for images nobody trusts: only the bytes
// given, never qemu-img, because qemu-img and QEMU open every file a qcow2 names (a backing file, an
// external data file) and a user-supplied qcow2 with `backing_file=/dev/vda` reads the host's disk.
// What it finds is enough to refuse such images; it does not validate the rest of the format (QEMU does
// that when it opens the image, with nothing more to follow).

/** "QFI\xfb", at byte 0 of qcow (version 1) and qcow2 images. */
const MAGIC = 0x514649fb;
const VERSION_2_HEADER_BYTES = 72;
const VERSION_3_MIN_HEADER_BYTES = 104;
/** QEMU opens clusters of 512 bytes (bits 9) to 2 MiB (bits 21). */
const MIN_CLUSTER_BITS = 9;
const MAX_CLUSTER_BITS = 21;
/** The spec bounds a backing file name to 1023 bytes. */
const MAX_BACKING_NAME_BYTES = 1023;

/** How many bytes of a file to give readQcow2Header: the largest first cluster QEMU opens. */
export const QCOW2_HEADER_READ_BYTES = 2 ** MAX_CLUSTER_BITS;

const EXTENSION_END = 0x00000000;
const EXTENSION_BACKING_FORMAT = 0xe2792aca;
const EXTENSION_DATA_FILE_NAME = 0x44415441;

const INCOMPATIBLE_DIRTY = 1n << 0n;
const INCOMPATIBLE_CORRUPT = 1n << 1n;
const INCOMPATIBLE_EXTERNAL_DATA_FILE = 1n << 2n;
const INCOMPATIBLE_COMPRESSION_TYPE = 1n << 3n;
const INCOMPATIBLE_EXTENDED_L2 = 1n << 4n;
const KNOWN_INCOMPATIBLE =
  INCOMPATIBLE_DIRTY |
  INCOMPATIBLE_CORRUPT |
  INCOMPATIBLE_EXTERNAL_DATA_FILE |
  INCOMPATIBLE_COMPRESSION_TYPE |
  INCOMPATIBLE_EXTENDED_L2;

export interface Qcow2Header {
  version: 2 | 3;
  clusterBits: number;
  /** The backing file's name, when the header names one (backing_file_offset is not 0). */
  backingFile?: string;
  /** Incompatible feature bit 2: guest data lives in another file. */
  externalDataFile: boolean;
  /** The "external data file name" header extension. */
  dataFileName?: string;
  /** The "backing file format name" header extension. */
  backingFormat?: string;
  /** Incompatible feature bits this reader does not know (QEMU may give them meaning later). */
  unknownIncompatibleFeatures: bigint;
}

/** The bytes are not a qcow2 header this reader can vouch for; the message says what is wrong. */
export class Qcow2HeaderError extends Error {
  override readonly name = "Qcow2HeaderError";
}

export function hasQcowMagic(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32BE(0) === MAGIC;
}

/** A name from the file, fit for a message: printable ASCII only, at most MAX_BACKING_NAME_BYTES. */
function printableName(bytes: Buffer): string {
  return bytes
    .subarray(0, MAX_BACKING_NAME_BYTES)
    .toString("latin1")
    .replace(/[^\x20-\x7e]/g, "?");
}

function backingFileName(bytes: Buffer, offset: bigint, size: number): string {
  const start = Number(offset);
  if (offset >= BigInt(bytes.length)) return `(at offset ${offset}, ${size} bytes)`;
  return printableName(bytes.subarray(start, start + Math.min(size, MAX_BACKING_NAME_BYTES)));
}

/** Walks the header extensions from `start` to `end` as QEMU does (qcow2_read_extensions). */
function readExtensions(bytes: Buffer, start: number, end: number, header: Qcow2Header): void {
  let offset = start;
  while (offset < end) {
    if (offset + 8 > end) throw new Qcow2HeaderError(`a header extension at ${offset} is cut off`);
    const type = bytes.readUInt32BE(offset);
    const length = bytes.readUInt32BE(offset + 4);
    offset += 8;
    if (length > end - offset) throw new Qcow2HeaderError(`a header extension at ${offset - 8} is too long`);
    if (type === EXTENSION_END) return;
    const data = bytes.subarray(offset, offset + length);
    if (type === EXTENSION_BACKING_FORMAT) header.backingFormat = printableName(data);
    if (type === EXTENSION_DATA_FILE_NAME) header.dataFileName = printableName(data);
    offset += Math.ceil(length / 8) * 8;
  }
}

/**
 * The header of a qcow2 image from its first bytes (at least the first cluster, or the whole file when it
 * is shorter: give it QCOW2_HEADER_READ_BYTES). Throws a Qcow2HeaderError for anything but a well-formed
 * version 2 or 3 header.
 */
export function readQcow2Header(bytes: Buffer): Qcow2Header {
  if (!hasQcowMagic(bytes)) throw new Qcow2HeaderError("it has no qcow2 magic (QFI\\xfb)");
  if (bytes.length < VERSION_2_HEADER_BYTES) throw new Qcow2HeaderError("its header is cut off");
  const version = bytes.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw new Qcow2HeaderError(`it is a qcow version ${version} image`);
  const clusterBits = bytes.readUInt32BE(20);
  if (clusterBits < MIN_CLUSTER_BITS || clusterBits > MAX_CLUSTER_BITS) {
    throw new Qcow2HeaderError(
      `its cluster_bits ${clusterBits} is outside ${MIN_CLUSTER_BITS}..${MAX_CLUSTER_BITS}`,
    );
  }
  const header: Qcow2Header = {
    version,
    clusterBits,
    externalDataFile: false,
    unknownIncompatibleFeatures: 0n,
  };
  const backingOffset = bytes.readBigUInt64BE(8);
  if (backingOffset !== 0n)
    header.backingFile = backingFileName(bytes, backingOffset, bytes.readUInt32BE(16));
  let headerLength = VERSION_2_HEADER_BYTES;
  if (version === 3) {
    if (bytes.length < VERSION_3_MIN_HEADER_BYTES) throw new Qcow2HeaderError("its header is cut off");
    const incompatible = bytes.readBigUInt64BE(72);
    header.externalDataFile = (incompatible & INCOMPATIBLE_EXTERNAL_DATA_FILE) !== 0n;
    header.unknownIncompatibleFeatures = incompatible & ~KNOWN_INCOMPATIBLE;
    headerLength = bytes.readUInt32BE(100);
    if (headerLength < VERSION_3_MIN_HEADER_BYTES || headerLength % 8 !== 0) {
      throw new Qcow2HeaderError(`its header_length ${headerLength} is invalid`);
    }
  }
  const clusterEnd = 2 ** clusterBits;
  if (headerLength > clusterEnd) throw new Qcow2HeaderError("its header is larger than a cluster");
  readExtensions(bytes, headerLength, Math.min(clusterEnd, bytes.length), header);
  return header;
}

/**
 * Why an image with this header must not be given to QEMU, or undefined when nothing in it is followed.
 * `reader` names who refuses features it does not know, in that refusal's text.
 */
export function qcow2Refusal(header: Qcow2Header, reader = "this reader"): string | undefined {
  if (header.backingFile !== undefined) return `names a backing file ${header.backingFile}`;
  if (header.externalDataFile || header.dataFileName !== undefined) {
    return `uses an external data file${header.dataFileName === undefined ? "" : ` ${header.dataFileName}`}`;
  }
  if (header.backingFormat !== undefined) {
    return `names a backing file format (${header.backingFormat}), which only a backing file uses`;
  }
  if (header.unknownIncompatibleFeatures !== 0n) {
    return `uses incompatible features unknown to ${reader} (0x${header.unknownIncompatibleFeatures.toString(16)})`;
  }
  return undefined;
}
