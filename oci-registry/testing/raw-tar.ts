// Tar headers written byte by byte, for entries the test image builder (test/oci-image) does not make:
// devices, FIFOs, GNU long names, sparse files, corrupted checksums.

export interface RawEntry {
  name: string;
  /** The type flag character ("0", "3", "6", "L", "S", ...). */
  type: string;
  content?: Buffer;
  linkName?: string;
  /** "gnu" writes GNU's "ustar  \0" magic, "posix" "ustar\000". */
  magic?: "gnu" | "posix";
  /** Spoil the checksum. */
  badChecksum?: boolean;
}

function octal(block: Buffer, offset: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, "0")}\0`, offset, width, "ascii");
}

export function rawHeader(entry: RawEntry): Buffer {
  const block = Buffer.alloc(512);
  block.write(entry.name, 0, 100, "utf8");
  octal(block, 100, 8, 0o644);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, entry.content?.length ?? 0);
  octal(block, 136, 12, 0);
  block.write(entry.type, 156, 1, "latin1");
  if (entry.linkName !== undefined) block.write(entry.linkName, 157, 100, "utf8");
  block.write(entry.magic === "gnu" ? "ustar  \0" : "ustar\u000000", 257, 8, "latin1");
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${(sum + (entry.badChecksum ? 1 : 0)).toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return block;
}

/** A whole archive of raw entries, with content padding and the two closing zero blocks. */
export function rawTar(entries: readonly RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(rawHeader(entry));
    if (entry.content !== undefined && entry.content.length > 0) {
      parts.push(entry.content, Buffer.alloc((512 - (entry.content.length % 512)) % 512));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** The buffer as a stream of chunks of `size` bytes (to cross block boundaries). */
export async function* chunked(buffer: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}
