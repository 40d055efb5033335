// The first bytes of an open file, which is all a format check reads (a short read is not the end).
import type { FileHandle } from "node:fs/promises";

/** The first `length` bytes of the file (fewer when it is shorter). */
export async function readFileHead(handle: FileHandle, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
