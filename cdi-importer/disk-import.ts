// One import, start to end, safe to kill at any moment: a disk.img already there means a previous run
// finished (nothing is touched); otherwise what earlier runs left is removed, the source is written into
// a temporary, and the temporary is renamed to disk.img last. A failure removes its temporaries.
import type { FileHandle } from "node:fs/promises";
import type { Logger } from "pino";
import { importBlank } from "./blank-import.js";
import { DataDir } from "./data-dir.js";
import { DISK_TEMPORARY } from "./disk-conversion.js";
import { importFromHttp } from "./http-import.js";
import type { ImportProgress } from "./import-progress.js";
import type { ImportRequest } from "./importer-env.js";
import { importFromClaim } from "./pvc-import.js";
import { importFromRegistry } from "./registry-import.js";

export interface ImportPaths {
  /** The claim's directory on this host (/data in the pod). */
  readonly data: string;
  /** The clone source claim's directory (/source in the pod). */
  readonly source: string;
}

export type ImportOutcome = "imported" | "already-done";

export async function runImport(
  request: ImportRequest,
  paths: ImportPaths,
  progress: ImportProgress,
  log: Logger,
): Promise<ImportOutcome> {
  const data = await DataDir.open(paths.data);
  if (await data.hasDisk()) {
    progress.complete();
    return "already-done";
  }
  const leftovers = await data.removeTemporaries();
  if (leftovers.length > 0) log.info({ leftovers }, "removed what an interrupted import left");
  let disk: FileHandle | undefined;
  try {
    disk = await writeDisk(request, paths, data, progress, log);
    await data.publish(disk, DISK_TEMPORARY);
  } catch (error) {
    await disk?.close();
    disk = undefined;
    await data.removeTemporaries().catch(() => undefined);
    throw error;
  } finally {
    await disk?.close();
  }
  progress.complete();
  return "imported";
}

function writeDisk(
  request: ImportRequest,
  paths: ImportPaths,
  data: DataDir,
  progress: ImportProgress,
  log: Logger,
): Promise<FileHandle> {
  const { imageSize, endpoint } = request;
  switch (request.source) {
    case "blank":
      return importBlank(data, imageSize);
    case "pvc":
      return importFromClaim(data, paths.source, imageSize);
    case "http":
      return importFromHttp({ data, url: endpoint as URL, imageSize, progress });
    case "registry":
      return importFromRegistry({
        data,
        url: endpoint as URL,
        imageSize,
        ...(request.registryHosts ? { hostsDirectory: request.registryHosts } : {}),
        log,
      });
  }
}
