// Writes a stream into a new file, leaving holes where the data is zero: a raw disk is mostly zeros, and a
// claim should hold only what the guest wrote (as qemu-img convert does with -S). The file must be new
// (all zeros already). A limit stops the stream as soon as the data is larger than it may be, before the
// claim fills up.
import type { FileHandle } from "node:fs/promises";

const BLOCK_BYTES = 64 * 1024;
const ZEROS = Buffer.alloc(BLOCK_BYTES);

export interface SinkLimit {
  readonly bytes: number;
  /** The error for data larger than `bytes` (seen: at least this much). */
  tooLarge(seen: number): Error;
}

/** Writes `input` from offset 0 of the new file `handle`; resolves with the bytes written (the file's length). */
export async function writeSparse(
  input: AsyncIterable<Buffer>,
  handle: FileHandle,
  limit?: SinkLimit,
): Promise<number> {
  let position = 0;
  for await (const chunk of input) {
    if (limit && position + chunk.length > limit.bytes) throw limit.tooLarge(position + chunk.length);
    for (let offset = 0; offset < chunk.length; offset += BLOCK_BYTES) {
      const block = chunk.subarray(offset, Math.min(offset + BLOCK_BYTES, chunk.length));
      if (!block.equals(ZEROS.subarray(0, block.length))) await writeFully(handle, block, position + offset);
    }
    position += chunk.length;
  }
  // Zeros at the end were skipped: the length comes from truncate.
  await handle.truncate(position);
  return position;
}

async function writeFully(handle: FileHandle, block: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < block.length) {
    const { bytesWritten } = await handle.write(block, written, block.length - written, position + written);
    written += bytesWritten;
  }
}
