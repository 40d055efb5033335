// IMPORTER_SOURCE=pvc: a host-assisted clone. The source claim (mounted read-only at /source) holds a raw
// disk.img, copied as raw whatever its bytes look like (a guest may well have written a qcow2 header at
// its start): qemu-img convert -f raw -O raw skips the source's holes and zero blocks.
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { DataDir, DISK_IMAGE_NAME, openRegularFile } from "./data-dir.js";
import { convertToDisk } from "./disk-conversion.js";
import { ImportError } from "./import-error.js";

export async function importFromClaim(
  data: DataDir,
  sourceHostPath: string,
  imageSize: number,
): Promise<FileHandle> {
  const sourceDir = await DataDir.open(sourceHostPath, "/source");
  const source = await openRegularFile(join(sourceDir.path, DISK_IMAGE_NAME), `/source/${DISK_IMAGE_NAME}`);
  try {
    const { size } = await source.stat();
    if (size > imageSize) {
      throw new ImportError(
        `the source claim's ${DISK_IMAGE_NAME} is ${size} bytes, more than ${imageSize}: target resources requests storage size is smaller than the source. A larger PVC is required`,
      );
    }
    return await convertToDisk({
      data,
      source,
      accept: "raw",
      imageSize,
      what: `/source/${DISK_IMAGE_NAME}`,
    });
  } finally {
    await source.close();
  }
}
