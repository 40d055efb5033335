// IMPORTER_SOURCE=http: the URL's body streamed into the claim. Its first bytes say what it is: gzip and xz
// are unwrapped on the fly, then a raw image is written straight into the disk's temporary (sparse, and
// stopped as soon as it is larger than the disk may be), a qcow2 into a temporary of its own, checked and
// converted. Nothing of the response is held in memory beyond one chunk.
import type { FileHandle } from "node:fs/promises";
import { counted, peek } from "./byte-streams.js";
import type { DataDir } from "./data-dir.js";
import { decompress } from "./decompress.js";
import { convertToDisk, DISK_TEMPORARY, largerPvcRequired } from "./disk-conversion.js";
import { getImage } from "./http-get.js";
import { detectCompression, detectDiskFormat, FORMAT_SNIFF_BYTES } from "./image-format.js";
import { ImportError } from "./import-error.js";
import type { ImportProgress } from "./import-progress.js";
import { writeSparse } from "./sparse-file-sink.js";

const QCOW2_TEMPORARY = "download.qcow2";

export interface HttpImport {
  readonly data: DataDir;
  readonly url: URL;
  readonly imageSize: number;
  readonly progress: ImportProgress;
}

/** Downloads and converts; resolves with the disk's temporary, open, of `imageSize` bytes. */
export async function importFromHttp(request: HttpImport): Promise<FileHandle> {
  const { data, imageSize, progress } = request;
  const response = await getImage(request.url);
  progress.expect(response.contentLength);
  const body = counted(response.body, (bytes) => progress.advance(bytes));
  const outer = await peek(body, FORMAT_SNIFF_BYTES);
  const compression = detectCompression(outer.head);
  const content = compression ? await peek(decompress(outer.all, compression), FORMAT_SNIFF_BYTES) : outer;
  if (content.head.length === 0) throw new ImportError("the image is empty");
  const detected = detectDiskFormat(content.head);
  if ("refused" in detected) {
    throw new ImportError(
      `the image is a ${detected.refused} image, which is not supported (only raw and qcow2)`,
    );
  }
  if (detected.format === "raw") {
    const disk = await data.createTemporary(DISK_TEMPORARY);
    try {
      await writeSparse(content.all, disk, {
        bytes: imageSize,
        tooLarge: (seen) => largerPvcRequired(`over ${seen - 1}`, imageSize),
      });
      await disk.truncate(imageSize);
      return disk;
    } catch (error) {
      await disk.close();
      throw error;
    }
  }
  // A qcow2 is converted from a whole file; a generous bound keeps a runaway stream from filling the claim.
  const qcow2 = await data.createTemporary(QCOW2_TEMPORARY);
  try {
    const bound = imageSize + Math.ceil(imageSize / 8) + 16 * 1024 ** 2;
    await writeSparse(content.all, qcow2, {
      bytes: bound,
      tooLarge: (seen) =>
        new ImportError(
          `the qcow2 image is over ${seen} bytes, larger than a ${imageSize}-byte disk needs. A larger PVC is required`,
        ),
    });
    return await convertToDisk({ data, source: qcow2, accept: "qcow2-or-raw", imageSize, what: "the image" });
  } finally {
    await qcow2.close();
    await data.removeTemporary(QCOW2_TEMPORARY);
  }
}
