// Pulling one image manifest's content into the cache: each layer downloaded to a file and checked against
// its digest and size, then unpacked over the previous ones, everything under a temporary directory that
// is published (renamed into place) only when complete and checked, and removed on any failure.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ContainerDiskError } from "../container-disk-source.js";
import { downloadBlob } from "./blob-download.js";
import { chooseDisk } from "./disk-selection.js";
import type { CachedImageRecord, ImageCache } from "./image-cache.js";
import { type LayerCompression, LayerFormatError, layerCompression, openLayer } from "./layer-stream.js";
import { LayerUnpacker, sealTree } from "./layer-unpack.js";
import type { ImageManifest } from "./manifests.js";
import type { RegistryClient } from "./registry-client.js";
import { readTar, TarFormatError } from "./tar-reader.js";

export interface PullRequest {
  readonly image: string;
  /** The reference in one spelling (image-reference.ts formatImageReference). */
  readonly reference: string;
  readonly manifest: ImageManifest;
  readonly client: RegistryClient;
  readonly cache: ImageCache;
  readonly maxUnpackedBytes: number;
}

async function unpackLayers(request: PullRequest, temporary: string, unpacker: LayerUnpacker): Promise<void> {
  const { manifest, client, image } = request;
  for (const [index, layer] of manifest.layers.entries()) {
    let compression: LayerCompression;
    try {
      compression = layerCompression(layer.mediaType);
    } catch (error) {
      const why = (error as Error).message;
      throw new ContainerDiskError("InvalidImage", image, `${image}: layer ${index + 1}: ${why}`, {
        cause: error,
      });
    }
    const blob = join(temporary, `layer-${index}`);
    await downloadBlob(client, layer, blob);
    const tar = openLayer(blob, compression);
    try {
      await unpacker.apply(readTar(tar.stream));
      await tar.finished;
    } catch (error) {
      tar.destroy();
      await tar.finished.catch(() => undefined);
      if (error instanceof TarFormatError || error instanceof LayerFormatError) {
        const why =
          error instanceof TarFormatError
            ? `is not a valid tar: ${error.message}`
            : `cannot be read: ${error.message}`;
        throw new ContainerDiskError("InvalidImage", image, `${image}: layer ${index + 1} ${why}`, {
          cause: error,
        });
      }
      throw error;
    } finally {
      await rm(blob, { force: true });
    }
  }
}

/** Pulls, unpacks, checks and publishes the image; returns its record. */
export async function pullIntoCache(request: PullRequest): Promise<CachedImageRecord> {
  const { cache, manifest, image } = request;
  const temporary = await cache.makeTemporary();
  try {
    const root = join(temporary, "rootfs");
    await mkdir(root, { mode: 0o755 });
    const unpacker = new LayerUnpacker({ image, root, maxUnpackedBytes: request.maxUnpackedBytes });
    await unpackLayers(request, temporary, unpacker);
    const size = await sealTree(root);
    const record: CachedImageRecord = {
      reference: request.reference,
      references: [request.reference],
      digest: manifest.digest,
      digests: [...manifest.digests],
      symlinks: Object.fromEntries(unpacker.state.symlinks),
      size,
      lastUsed: new Date().toISOString(),
    };
    try {
      const choice = await chooseDisk({ image, root, symlinks: unpacker.state.symlinks });
      if (choice.disk !== undefined) record.disk = choice.disk;
      if (choice.diskFormat !== undefined) record.diskFormat = choice.diskFormat;
    } catch (error) {
      // Kept, not thrown: a VMI naming containerDisk.path does not use /disk, so the image may still serve.
      if (!(error instanceof ContainerDiskError)) throw error;
      record.diskProblem = error.message;
    }
    await cache.publish(temporary, record);
    return record;
  } catch (error) {
    await cache.discard(temporary);
    throw error;
  }
}
