// What an image's bytes are, from their magic numbers only: never from a URL's or a file's name (a
// `disk.raw` may be a qcow2 that names a backing file), and never by asking qemu-img to probe (it would
// open whatever a qcow2 header names).

/** Compressions unwrapped while streaming. */
export type Compression = "gzip" | "xz";
/** Disk formats written to the claim (qcow2 is converted to raw). */
export type DiskFormat = "qcow2" | "raw";

/** How many bytes of a stream's head the detection needs (VDI's signature is at 64). */
export const FORMAT_SNIFF_BYTES = 512;

const GZIP = Buffer.from([0x1f, 0x8b]);
const XZ = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
const QCOW = Buffer.from([0x51, 0x46, 0x49, 0xfb]);

/** Formats qemu-img could convert but this importer refuses (each named, so the user knows why). */
const REFUSED: readonly { name: string; offset: number; magic: Buffer }[] = [
  { name: "zstd-compressed", offset: 0, magic: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]) },
  { name: "bzip2-compressed", offset: 0, magic: Buffer.from("BZh", "latin1") },
  { name: "VMDK", offset: 0, magic: Buffer.from("KDMV", "latin1") },
  { name: "VMDK descriptor", offset: 0, magic: Buffer.from("# Disk DescriptorFile", "latin1") },
  { name: "VHDX", offset: 0, magic: Buffer.from("vhdxfile", "latin1") },
  { name: "VHD", offset: 0, magic: Buffer.from("conectix", "latin1") },
  { name: "VDI", offset: 64, magic: Buffer.from([0x7f, 0x10, 0xda, 0xbe]) },
  { name: "QED", offset: 0, magic: Buffer.from([0x51, 0x45, 0x44, 0x00]) },
];

function startsWithAt(head: Buffer, offset: number, magic: Buffer): boolean {
  return head.length >= offset + magic.length && head.subarray(offset, offset + magic.length).equals(magic);
}

export function detectCompression(head: Buffer): Compression | undefined {
  if (startsWithAt(head, 0, GZIP)) return "gzip";
  if (startsWithAt(head, 0, XZ)) return "xz";
  return undefined;
}

/** qcow2 or raw; a format this importer does not take is named in the returned `refused`. */
export function detectDiskFormat(head: Buffer): { format: DiskFormat } | { refused: string } {
  if (startsWithAt(head, 0, QCOW)) return { format: "qcow2" };
  const refused = REFUSED.find((candidate) => startsWithAt(head, candidate.offset, candidate.magic));
  if (refused) return { refused: refused.name };
  return { format: "raw" };
}
