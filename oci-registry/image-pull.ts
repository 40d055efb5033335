// Pulling one image manifest's content into the cache: each layer downloaded to a file and checked against
// its digest and size, then unpacked over the previous ones, everything under a temporary directory that
// is published (renamed into place) only when complete and checked, and removed on any failure.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { downloadBlob } from "./blob-download.js";
import type { BaseImageRecord, CachedImageRecord, ImageCache } from "./image-cache.js";
import { type LayerCompression, LayerFormatError, layerCompression, openLayer } from "./layer-stream.js";
import { LayerUnpacker, sealTree } from "./layer-unpack.js";
import type { ImageManifest } from "./manifests.js";
import { OciImageError } from "./oci-image-error.js";
import type { RegistryClient } from "./registry-client.js";
import { readTar, TarFormatError } from "./tar-reader.js";

/** An unpacked, sealed image before it is published, as the caller's `inspect` sees it. */
export interface UnpackedTree {
  readonly image: string;
  /** The image's file system (read-only already). */
  readonly root: string;
  /** Symbolic links the layers had ("/disk/x" → target): not on the file system. */
  readonly symlinks: ReadonlyMap<string, string>;
}

/** What a consumer keeps about each pulled image, found once in the unpacked tree. */
export interface ImageInspection<Facts extends object> {
  /** Top-level directories in which devices, FIFOs and unknown entries are refused (layer-unpack.ts). */
  readonly strictDirectories?: readonly string[];
  /** Facts stored in the image's record; a throw fails the pull. */
  inspect(unpacked: UnpackedTree): Promise<Facts>;
}

export interface PullRequest<Facts extends object> {
  readonly image: string;
  /** The reference in one spelling (image-reference.ts formatImageReference). */
  readonly reference: string;
  readonly manifest: ImageManifest;
  readonly client: RegistryClient;
  readonly cache: ImageCache<Facts>;
  readonly maxUnpackedBytes: number;
  readonly inspection: ImageInspection<Facts>;
}

async function unpackLayers<Facts extends object>(
  request: PullRequest<Facts>,
  temporary: string,
  unpacker: LayerUnpacker,
): Promise<void> {
  const { manifest, client, image } = request;
  for (const [index, layer] of manifest.layers.entries()) {
    let compression: LayerCompression;
    try {
      compression = layerCompression(layer.mediaType);
    } catch (error) {
      const why = (error as Error).message;
      throw new OciImageError("InvalidImage", image, `${image}: layer ${index + 1}: ${why}`, {
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
        throw new OciImageError("InvalidImage", image, `${image}: layer ${index + 1} ${why}`, {
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
export async function pullIntoCache<Facts extends object>(
  request: PullRequest<Facts>,
): Promise<CachedImageRecord<Facts>> {
  const { cache, manifest, image, inspection } = request;
  const temporary = await cache.makeTemporary();
  try {
    const root = join(temporary, "rootfs");
    await mkdir(root, { mode: 0o755 });
    const unpacker = new LayerUnpacker({
      image,
      root,
      maxUnpackedBytes: request.maxUnpackedBytes,
      ...(inspection.strictDirectories === undefined
        ? {}
        : { strictDirectories: inspection.strictDirectories }),
    });
    await unpackLayers(request, temporary, unpacker);
    const size = await sealTree(root);
    const base: BaseImageRecord = {
      reference: request.reference,
      references: [request.reference],
      digest: manifest.digest,
      digests: [...manifest.digests],
      symlinks: Object.fromEntries(unpacker.state.symlinks),
      size,
      lastUsed: new Date().toISOString(),
    };
    const facts = await inspection.inspect({ image, root, symlinks: unpacker.state.symlinks });
    const record: CachedImageRecord<Facts> = { ...base, ...facts };
    await cache.publish(temporary, record);
    return record;
  } catch (error) {
    await cache.discard(temporary);
    throw error;
  }
}
