// A streaming tar reader for image layers: ustar and v7 headers (checksums verified), pax extended headers
// (`path`, `linkpath`, `size`; global headers are read and ignored) and GNU long names and long link names
// ('L', 'K'). Entries are yielded one at a time with their content as a stream of chunks, so a layer of
// any size is read in constant memory; whatever an entry's content the consumer leaves unread is skipped.
// Names are returned as written: what they may name is the unpacker's decision (layer-unpack.ts).

export type TarEntryType =
  | "file"
  | "directory"
  | "symlink"
  | "hardlink"
  | "character-device"
  | "block-device"
  | "fifo"
  | "other";

export interface TarEntry {
  readonly path: string;
  readonly type: TarEntryType;
  /** The content's length (0 for anything but files, usually). */
  readonly size: number;
  /** The target of a symlink or hardlink. */
  readonly linkPath: string;
  readonly mode: number;
  /** The header's type flag as written ("0", "5", "S", ...), for messages. */
  readonly typeFlag: string;
}

export interface TarItem {
  readonly entry: TarEntry;
  /** The entry's content; read it before asking for the next entry, or leave it (it is skipped). */
  readonly content: AsyncIterable<Buffer>;
}

/** The bytes are not a tar archive this reader accepts; the message says where and why. */
export class TarFormatError extends Error {
  override readonly name = "TarFormatError";
}

const BLOCK = 512;
/** Extended headers and long names are metadata: a megabyte is far more than any real one. */
const MAX_METADATA_BYTES = 1024 * 1024;

const TYPES: Record<string, TarEntryType> = {
  "0": "file",
  "\0": "file",
  "7": "file",
  "1": "hardlink",
  "2": "symlink",
  "3": "character-device",
  "4": "block-device",
  "5": "directory",
  "6": "fifo",
};

class ByteSource {
  readonly #iterator: AsyncIterator<Buffer>;
  #pending: Buffer = Buffer.alloc(0);
  /** Bytes handed out so far, for messages. */
  offset = 0;

  constructor(source: AsyncIterable<Buffer>) {
    this.#iterator = source[Symbol.asyncIterator]();
  }

  async #more(): Promise<boolean> {
    const next = await this.#iterator.next();
    if (next.done) return false;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    return true;
  }

  /** Exactly `length` bytes; undefined when the stream ends cleanly before the first of them. */
  async read(length: number): Promise<Buffer | undefined> {
    while (this.#pending.length < length) {
      if (!(await this.#more())) {
        if (this.#pending.length === 0) return undefined;
        throw new TarFormatError(`the archive is cut off at byte ${this.offset + this.#pending.length}`);
      }
    }
    const bytes = this.#pending.subarray(0, length);
    this.#pending = this.#pending.subarray(length);
    this.offset += length;
    return bytes;
  }

  async readExactly(length: number): Promise<Buffer> {
    const bytes = length === 0 ? Buffer.alloc(0) : await this.read(length);
    if (bytes === undefined) throw new TarFormatError(`the archive is cut off at byte ${this.offset}`);
    return bytes;
  }

  /** Up to `length` bytes from what is buffered (reading more when nothing is). */
  async piece(length: number): Promise<Buffer> {
    if (this.#pending.length === 0 && !(await this.#more())) {
      throw new TarFormatError(`the archive is cut off at byte ${this.offset}`);
    }
    const bytes = this.#pending.subarray(0, Math.min(length, this.#pending.length));
    this.#pending = this.#pending.subarray(bytes.length);
    this.offset += bytes.length;
    return bytes;
  }

  async skip(length: number): Promise<void> {
    let left = length;
    while (left > 0) left -= (await this.piece(left)).length;
  }

  /** Reads the rest of the stream (so that a decompressor feeding it can finish). */
  async drain(): Promise<void> {
    this.#pending = Buffer.alloc(0);
    while (await this.#more()) this.#pending = Buffer.alloc(0);
  }
}

function text(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? field.length : end).toString("utf8");
}

/** An octal number (space/NUL padded), or GNU's base-256 form (high bit of the first byte set). */
function numberField(field: Buffer, what: string, at: number): number {
  const first = field[0] ?? 0;
  if (first & 0x80) {
    let value = first & 0x7f;
    for (const byte of field.subarray(1)) value = value * 256 + byte;
    if (!Number.isSafeInteger(value))
      throw new TarFormatError(`the ${what} of the header at byte ${at} is too large`);
    return value;
  }
  const digits = field
    .toString("latin1")
    .replace(/[\0 ]+$/, "")
    .replace(/^ +/, "");
  if (digits === "") return 0;
  if (!/^[0-7]+$/.test(digits))
    throw new TarFormatError(`the ${what} of the header at byte ${at} is not octal`);
  return Number.parseInt(digits, 8);
}

function checksumMatches(header: Buffer, at: number): boolean {
  const stored = numberField(header.subarray(148, 156), "checksum", at);
  let unsigned = 0;
  let signed = 0;
  for (let index = 0; index < BLOCK; index++) {
    const byte = index >= 148 && index < 156 ? 0x20 : (header[index] ?? 0);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/** pax records: "<length> <key>=<value>\n", the length counting the whole record. */
export function parsePaxRecords(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    const length = Number(data.subarray(offset, space).toString("latin1"));
    if (
      space < 0 ||
      !Number.isSafeInteger(length) ||
      length <= space - offset ||
      offset + length > data.length
    ) {
      throw new TarFormatError("a pax extended header record is malformed");
    }
    const record = data.subarray(space + 1, offset + length - 1).toString("utf8");
    const equals = record.indexOf("=");
    if (equals <= 0 || data[offset + length - 1] !== 0x0a)
      throw new TarFormatError("a pax extended header record is malformed");
    records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

async function readMetadata(source: ByteSource, size: number, what: string): Promise<Buffer> {
  if (size > MAX_METADATA_BYTES)
    throw new TarFormatError(`a ${what} of ${size} bytes is larger than ${MAX_METADATA_BYTES}`);
  const data = await source.readExactly(size);
  await source.skip((BLOCK - (size % BLOCK)) % BLOCK);
  return data;
}

interface Pending {
  pax: Record<string, string>;
  longName?: string;
  longLink?: string;
}

export async function* readTar(input: AsyncIterable<Buffer>): AsyncGenerator<TarItem, void, undefined> {
  const source = new ByteSource(input);
  let pending: Pending = { pax: {} };
  for (;;) {
    const at = source.offset;
    const header = await source.read(BLOCK);
    if (header === undefined) {
      if (Object.keys(pending.pax).length > 0 || pending.longName !== undefined) {
        throw new TarFormatError("the archive ends after an extended header");
      }
      return;
    }
    if (header.every((byte) => byte === 0)) {
      await source.drain();
      return;
    }
    if (!checksumMatches(header, at))
      throw new TarFormatError(`the header at byte ${at} has a wrong checksum`);
    const typeFlag = String.fromCharCode(header[156] ?? 0);
    const headerSize = numberField(header.subarray(124, 136), "size", at);
    if (typeFlag === "x") {
      Object.assign(pending.pax, parsePaxRecords(await readMetadata(source, headerSize, "pax header")));
      continue;
    }
    if (typeFlag === "g") {
      await readMetadata(source, headerSize, "pax global header");
      continue;
    }
    if (typeFlag === "L" || typeFlag === "K") {
      const value = text(await readMetadata(source, headerSize, "GNU long name"));
      if (typeFlag === "L") pending.longName = value;
      else pending.longLink = value;
      continue;
    }
    const isPosix = header.subarray(257, 263).toString("latin1") === "ustar\0";
    const prefix = isPosix ? text(header.subarray(345, 500)) : "";
    const name = text(header.subarray(0, 100));
    const paxSize = pending.pax.size;
    if (paxSize !== undefined && !/^[0-9]+$/.test(paxSize))
      throw new TarFormatError(`the pax size of the entry at byte ${at} is not a number`);
    const size = paxSize === undefined ? headerSize : Number(paxSize);
    if (!Number.isSafeInteger(size))
      throw new TarFormatError(`the size of the entry at byte ${at} is too large`);
    const entry: TarEntry = {
      path: pending.pax.path ?? pending.longName ?? (prefix === "" ? name : `${prefix}/${name}`),
      type: TYPES[typeFlag] ?? "other",
      size,
      linkPath: pending.pax.linkpath ?? pending.longLink ?? text(header.subarray(157, 257)),
      mode: numberField(header.subarray(100, 108), "mode", at) & 0o7777,
      typeFlag,
    };
    pending = { pax: {} };
    let remaining = size;
    const content = (async function* () {
      while (remaining > 0) {
        const piece = await source.piece(remaining);
        remaining -= piece.length;
        yield piece;
      }
    })();
    yield { entry, content };
    await source.skip(remaining);
    await source.skip((BLOCK - (size % BLOCK)) % BLOCK);
  }
}
