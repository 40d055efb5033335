// Images for tests: a config blob and an OCI or Docker manifest over layers, optionally listed in
// an OCI index or Docker manifest list with several platforms. Every document is serialised once
// and its digest taken over those exact bytes, which is what a registry stores and serves.
import { createHash } from "node:crypto";
import type { Blob, Layer } from "./layer.js";
import { type ManifestFormat, MEDIA_TYPES } from "./media-types.js";

export type { Blob, BlobContent, Layer, LayerOptions } from "./layer.js";
export { LayerBuildError, layerFromEntries } from "./layer.js";
export type { LayerCompression, ManifestFormat } from "./media-types.js";
export { MEDIA_TYPES } from "./media-types.js";
export type { TarEntry, TarEntryType } from "./tar-writer.js";
export { TarWriteError, tarChunks } from "./tar-writer.js";

export interface Platform {
  readonly architecture: string;
  readonly os: string;
  readonly variant?: string;
}

/** A JSON document as it is pushed: its bytes, and the digest and size of those bytes. */
export interface Document {
  readonly mediaType: string;
  readonly bytes: Buffer;
  readonly digest: string;
  readonly size: number;
}

export interface ImageManifest extends Document {
  readonly kind: "manifest";
  readonly format: ManifestFormat;
  readonly platform: Platform;
  readonly config: Blob;
  readonly layers: readonly Layer[];
}

export interface ImageIndex extends Document {
  readonly kind: "index";
  readonly format: ManifestFormat;
  readonly manifests: readonly Image[];
}

export type Image = ImageManifest | ImageIndex;

type Json = Record<string, unknown>;

export interface ImageOptions {
  readonly layers: readonly Layer[];
  /** Default "oci". */
  readonly format?: ManifestFormat;
  /** Default linux/amd64. */
  readonly platform?: Platform;
  readonly labels?: Readonly<Record<string, string>>;
  /** Changes the config document before it is serialised (e.g. a wrong architecture or diff_id). */
  readonly editConfig?: (config: Json) => void;
  /** Changes the manifest document before it is serialised (e.g. a wrong layer digest or size). */
  readonly editManifest?: (manifest: Json) => void;
}

export const LINUX_AMD64: Platform = { architecture: "amd64", os: "linux" };
export const LINUX_ARM64: Platform = { architecture: "arm64", os: "linux", variant: "v8" };

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

export function blobFromBytes(bytes: Buffer): Blob {
  return { digest: sha256Digest(bytes), size: bytes.length, content: bytes };
}

export function document(mediaType: string, json: Json): Document {
  const bytes = Buffer.from(JSON.stringify(json, null, 2), "utf8");
  return { mediaType, bytes, digest: sha256Digest(bytes), size: bytes.length };
}

export function buildImage(options: ImageOptions): ImageManifest {
  const format = options.format ?? "oci";
  const types = MEDIA_TYPES[format];
  const platform = options.platform ?? LINUX_AMD64;
  const configJson: Json = {
    architecture: platform.architecture,
    os: platform.os,
    ...(platform.variant ? { variant: platform.variant } : {}),
    config: options.labels ? { Labels: { ...options.labels } } : {},
    rootfs: { type: "layers", diff_ids: options.layers.map((layer) => layer.diffId) },
    history: options.layers.map(() => ({ created_by: "kubevirt-ts test/oci-image" })),
  };
  options.editConfig?.(configJson);
  const configDoc = document(types.config, configJson);
  const config = blobFromBytes(configDoc.bytes);
  const manifestJson: Json = {
    schemaVersion: 2,
    mediaType: types.manifest,
    config: { mediaType: types.config, digest: config.digest, size: config.size },
    layers: options.layers.map((layer) => ({
      mediaType: layer.mediaType ?? types.layer[layer.compression],
      digest: layer.digest,
      size: layer.size,
    })),
  };
  options.editManifest?.(manifestJson);
  return {
    kind: "manifest",
    format,
    platform,
    config,
    layers: options.layers,
    ...document(types.manifest, manifestJson),
  };
}

export interface IndexOptions {
  /** Default "oci". */
  readonly format?: ManifestFormat;
  /** Changes the index document before it is serialised. */
  readonly editIndex?: (index: Json) => void;
}

/** An OCI index or Docker manifest list over images (which may themselves be indexes). */
export function buildIndex(manifests: readonly Image[], options: IndexOptions = {}): ImageIndex {
  const format = options.format ?? "oci";
  const mediaType = MEDIA_TYPES[format].index;
  const indexJson: Json = {
    schemaVersion: 2,
    mediaType,
    manifests: manifests.map((image) => ({
      mediaType: image.mediaType,
      digest: image.digest,
      size: image.size,
      ...(image.kind === "manifest" ? { platform: { ...image.platform } } : {}),
    })),
  };
  options.editIndex?.(indexJson);
  return { kind: "index", format, manifests, ...document(mediaType, indexJson) };
}
