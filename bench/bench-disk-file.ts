// A raw disk file for the pull benchmark: half random, half zeros in every 64 KiB block, so that gzip
// has real work (the random half does not shrink, the zeros do) and the layer is about half the disk.
import { randomBytes } from "node:crypto";
import { open } from "node:fs/promises";

const BLOCK = 64 * 1024;
const CHUNK_BLOCKS = 64;

export async function writeHalfRandomDisk(path: string, bytes: number): Promise<void> {
  const file = await open(path, "w");
  try {
    for (let written = 0; written < bytes; ) {
      const chunk = Buffer.alloc(Math.min(BLOCK * CHUNK_BLOCKS, bytes - written));
      for (let offset = 0; offset < chunk.length; offset += BLOCK) {
        randomBytes(Math.min(BLOCK / 2, chunk.length - offset)).copy(chunk, offset);
      }
      await file.write(chunk);
      written += chunk.length;
    }
  } finally {
    await file.close();
  }
}
