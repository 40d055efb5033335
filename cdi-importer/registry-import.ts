// IMPORTER_SOURCE=registry: a containerDisk image (the disk is the one file under /disk/, as KubeVirt
// reads it) pulled with the shared registry client into a temporary cache in the claim, through the
// node's mirror configuration; the disk is then checked and converted like a downloaded one, and the
// cache removed.
import type { FileHandle } from "node:fs/promises";
import { lstat, readdir } from "node:fs/promises";
import { join, posix } from "node:path";
import type { Logger } from "pino";
import { OciImageError, RegistryPuller, ToolMissingError, type UnpackedTree } from "../oci-registry/index.js";
import { type DataDir, openRegularFile } from "./data-dir.js";
import { convertToDisk } from "./disk-conversion.js";
import { ImportError } from "./import-error.js";

const CACHE_TEMPORARY = "registry";

export interface RegistryImport {
  readonly data: DataDir;
  /** docker://host[:port]/repository[:tag|@digest] */
  readonly url: URL;
  readonly imageSize: number;
  readonly hostsDirectory?: string;
  readonly log: Logger;
}

/** The image reference of a docker:// URL: everything after the scheme. */
export function imageOfUrl(url: URL): string {
  return url.href.slice("docker://".length);
}

interface DiskFacts {
  readonly disk: string;
}

/** CDI's refusal (and KubeVirt's for several files), for an image that is no containerDisk. */
async function onlyDiskFile(tree: UnpackedTree): Promise<DiskFacts> {
  // An OciImageError: the puller reports it as the image's fault, not an endpoint's, and tries no other.
  const refuse = (why: string) => new OciImageError("InvalidImage", tree.image, `${tree.image}: ${why}`);
  const missing = () => refuse("Failed to find VM disk image file in the container image (no file in /disk)");
  if (tree.symlinks.has("/disk")) throw refuse("/disk is a symbolic link, not a directory");
  const stats = await lstat(join(tree.root, "disk")).catch(() => undefined);
  if (!stats?.isDirectory()) throw missing();
  const names = new Set(await readdir(join(tree.root, "disk")));
  for (const link of tree.symlinks.keys())
    if (posix.dirname(link) === "/disk") names.add(posix.basename(link));
  if (names.size > 1) {
    throw refuse("more than one file found in folder /disk, only one disk is allowed");
  }
  const [name] = names;
  if (name === undefined) throw missing();
  const disk = `/disk/${name}`;
  if (tree.symlinks.has(disk)) throw refuse(`the disk ${disk} is a symbolic link, not a regular file`);
  return { disk };
}

export async function importFromRegistry(request: RegistryImport): Promise<FileHandle> {
  const { data, imageSize } = request;
  const image = imageOfUrl(request.url);
  const puller = new RegistryPuller<DiskFacts>(
    {
      cacheDirectory: data.temporary(CACHE_TEMPORARY),
      // The cache holds this one image, for as long as the import runs.
      maxCacheBytes: Number.MAX_SAFE_INTEGER,
      ...(request.hostsDirectory ? { hostsDirectory: request.hostsDirectory } : {}),
      log: request.log,
    },
    { strictDirectories: ["disk"], inspect: onlyDiskFile },
  );
  try {
    let pulled: Awaited<ReturnType<typeof puller.pull>>;
    try {
      // Always from the registry: the cache is this import's own.
      pulled = await puller.pull(image, { pullPolicy: "Always" });
    } catch (error) {
      if (error instanceof OciImageError || error instanceof ToolMissingError) {
        throw new ImportError(`Failed to read registry image: ${error.message}`, { cause: error });
      }
      throw error;
    }
    const disk = pulled.record.disk;
    const source = await openRegularFile(join(pulled.root, disk), `${image}: ${disk}`);
    try {
      return await convertToDisk({
        data,
        source,
        accept: "qcow2-or-raw",
        imageSize,
        what: `${image}: ${disk}`,
      });
    } finally {
      await source.close();
    }
  } finally {
    await data.removeTemporary(CACHE_TEMPORARY);
  }
}
