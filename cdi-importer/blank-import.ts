// IMPORTER_SOURCE=blank: an empty raw disk, sparse (what `qemu-img create -f raw` makes).
import type { FileHandle } from "node:fs/promises";
import type { DataDir } from "./data-dir.js";
import { DISK_TEMPORARY } from "./disk-conversion.js";

export async function importBlank(data: DataDir, imageSize: number): Promise<FileHandle> {
  const disk = await data.createTemporary(DISK_TEMPORARY);
  try {
    await disk.truncate(imageSize);
    return disk;
  } catch (error) {
    await disk.close();
    throw error;
  }
}
