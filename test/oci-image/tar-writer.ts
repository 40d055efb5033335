// A POSIX ustar writer with pax extended headers, written here rather than taken from tar-stream
// because tests need entries no careful library emits: `../escape`, absolute paths, `/disk/../../x`.
// Paths and link targets go into the archive exactly as given.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";

export type TarEntryType = "file" | "dir" | "symlink" | "hardlink";

export interface TarEntry {
  /** The name in the archive, byte for byte (no normalisation, no trailing slash added). */
  readonly path: string;
  readonly type: TarEntryType;
  /** File content: bytes, or the path of a file streamed into the archive (big disks). */
  readonly content?: Buffer | string;
  /** Target of a symlink or hardlink, as given. */
  readonly linkTarget?: string;
  /** Permission bits; default 0o644 for files, 0o755 for directories, 0o777 for symlinks. */
  readonly mode?: number;
  /** Owner; default 107:107, the qemu user KubeVirt's images are built for. */
  readonly uid?: number;
  readonly gid?: number;
  /** Seconds since the epoch; default 0, so that the same entries give the same bytes. */
  readonly mtime?: number;
}

export const BLOCK = 512;
const NAME_FIELD = 100;
/** The largest size an 11-digit octal field holds; bigger files need a pax `size` record. */
const MAX_OCTAL_SIZE = 0o77777777777;
const TYPE_FLAGS: Record<TarEntryType, string> = { file: "0", hardlink: "1", symlink: "2", dir: "5" };
const DEFAULT_MODES: Record<TarEntryType, number> = {
  file: 0o644,
  hardlink: 0o644,
  symlink: 0o777,
  dir: 0o755,
};

export class TarWriteError extends Error {
  override readonly name = "TarWriteError";
  constructor(
    readonly reason: "ContentSizeChanged" | "ContentMissing" | "ContentNotAllowed",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The archive as a sequence of chunks: headers, content, padding and the two closing zero blocks. */
export async function* tarChunks(entries: Iterable<TarEntry>): AsyncGenerator<Buffer> {
  for (const entry of entries) {
    const size = await contentSize(entry);
    const pax = paxRecords(entry, size);
    if (pax.length > 0) {
      const body = Buffer.from(pax.join(""), "utf8");
      yield header({ name: paxName(entry.path), typeFlag: "x", size: body.length, mode: 0o644, entry });
      yield body;
      yield padding(body.length);
    }
    yield header({
      name: entry.path,
      typeFlag: TYPE_FLAGS[entry.type],
      size,
      mode: entry.mode ?? DEFAULT_MODES[entry.type],
      entry,
    });
    if (size > 0) {
      yield* contentChunks(entry, size);
      yield padding(size);
    }
  }
  yield Buffer.alloc(2 * BLOCK);
}

async function contentSize(entry: TarEntry): Promise<number> {
  if (entry.type !== "file") {
    if (entry.content !== undefined)
      throw new TarWriteError("ContentNotAllowed", `tar entry ${entry.path}: a ${entry.type} has no content`);
    return 0;
  }
  if (entry.content === undefined) return 0;
  if (Buffer.isBuffer(entry.content)) return entry.content.length;
  try {
    return (await stat(entry.content)).size;
  } catch (error) {
    throw new TarWriteError("ContentMissing", `tar entry ${entry.path}: cannot read ${entry.content}`, {
      cause: error,
    });
  }
}

async function* contentChunks(entry: TarEntry, size: number): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(entry.content)) {
    yield entry.content;
    return;
  }
  const path = entry.content as string;
  let read = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    read += bytes.length;
    // A header already announced the size: a file that grows or shrinks would corrupt the archive.
    if (read > size) break;
    yield bytes;
  }
  if (read !== size) {
    throw new TarWriteError("ContentSizeChanged", `tar entry ${entry.path}: ${path} changed size while read`);
  }
}

/** pax records for what ustar cannot hold: long or non-ASCII names and link targets, sizes ≥ 8 GiB. */
function paxRecords(entry: TarEntry, size: number): string[] {
  const records: string[] = [];
  if (!fitsUstar(entry.path)) records.push(paxRecord("path", entry.path));
  if (entry.linkTarget !== undefined && !fitsUstar(entry.linkTarget))
    records.push(paxRecord("linkpath", entry.linkTarget));
  if (size > MAX_OCTAL_SIZE) records.push(paxRecord("size", String(size)));
  return records;
}

function fitsUstar(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is exactly what ustar holds
  return Buffer.byteLength(text, "utf8") <= NAME_FIELD && /^[\x00-\x7f]*$/.test(text);
}

/** `<length> <key>=<value>\n`, where the length counts its own digits too. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  const restBytes = Buffer.byteLength(rest, "utf8");
  let length = restBytes + 1;
  while (String(length).length + restBytes !== length) length = String(length).length + restBytes;
  return `${length}${rest}`;
}

/** The pax header's own name, as GNU tar and Go's archive/tar write it; readers ignore it. */
function paxName(path: string): string {
  const base = path.split("/").filter(Boolean).pop() ?? "entry";
  return `PaxHeaders.0/${asciiPrefix(base, NAME_FIELD - 13)}`;
}

function asciiPrefix(text: string, max: number): string {
  return text.replace(/[^\x20-\x7e]/g, "_").slice(0, max);
}

function header(fields: { name: string; typeFlag: string; size: number; mode: number; entry: TarEntry }) {
  const block = Buffer.alloc(BLOCK);
  const { entry } = fields;
  // Names too long for the field were put in a pax record; the field then keeps an ASCII prefix.
  writeText(
    block,
    0,
    NAME_FIELD,
    fitsUstar(fields.name) ? fields.name : asciiPrefix(fields.name, NAME_FIELD),
  );
  writeOctal(block, 100, 8, fields.mode);
  writeOctal(block, 108, 8, entry.uid ?? 107);
  writeOctal(block, 116, 8, entry.gid ?? 107);
  writeOctal(block, 124, 12, Math.min(fields.size, MAX_OCTAL_SIZE));
  writeOctal(block, 136, 12, entry.mtime ?? 0);
  block.write(fields.typeFlag, 156, 1, "ascii");
  if (fields.typeFlag !== "x" && entry.linkTarget !== undefined) {
    const target = entry.linkTarget;
    writeText(block, 157, NAME_FIELD, fitsUstar(target) ? target : asciiPrefix(target, NAME_FIELD));
  }
  block.write("ustar\u000000", 257, 8, "ascii");
  // The checksum is computed with its own field read as eight spaces.
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, 8, "ascii");
  return block;
}

function writeText(block: Buffer, offset: number, width: number, text: string): void {
  block.write(text, offset, width, "utf8");
}

function writeOctal(block: Buffer, offset: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, "0")}\u0000`, offset, width, "ascii");
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}
