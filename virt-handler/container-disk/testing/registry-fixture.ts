// A real docker-registry for the pull tests (dev-cluster/registry), a hosts directory that reaches it over
// plain http, and shortcuts to push single-layer test images (test/oci-image).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { pino } from "pino";
import { writeRegistryMirrors } from "../../../dev-cluster/registry/registry-mirrors.js";
import { type RunningRegistry, startRegistry } from "../../../dev-cluster/registry/start-registry.js";
import {
  buildImage,
  type Image,
  type Layer,
  type LayerCompression,
  layerFromEntries,
  type ManifestFormat,
  type Platform,
  pushImage,
  sha256Digest,
  type TarEntry,
} from "../../../test/oci-image/index.js";
import { ContainerDiskError, type ContainerDiskErrorReason } from "../container-disk-source.js";
import { RegistryImageSource, type RegistryImageSourceOptions } from "../registry-image-source.js";

export interface RegistryFixture {
  readonly work: string;
  readonly registry: RunningRegistry;
  readonly dataDir: string;
  /** A containerd hosts directory mapping the registry's own address to http://. */
  readonly hostsDirectory: string;
  stop(): Promise<void>;
}

export const silentLog = pino({ level: "silent" });

/** An assert.rejects check: a ContainerDiskError with this reason and a message matching `why`. */
export function refusedWith(reason: ContainerDiskErrorReason, why: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ContainerDiskError, `a ContainerDiskError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    assert.match(error.message, why);
    return true;
  };
}

/** Sources over the fixture's hosts directory, each with a cache of its own. */
export function imageSources(fixture: () => RegistryFixture) {
  let caches = 0;
  return (options: Partial<RegistryImageSourceOptions> = {}) =>
    new RegistryImageSource({
      cacheDirectory: join(fixture().work, `cache-${caches++}`),
      maxCacheBytes: 1024 ** 3,
      hostsDirectory: fixture().hostsDirectory,
      log: silentLog,
      ...options,
    });
}

export async function startRegistryFixture(htpasswd?: {
  user: string;
  password: string;
}): Promise<RegistryFixture> {
  const work = await mkdtemp(join(tmpdir(), "registry-pull-"));
  const dataDir = join(work, "registry");
  const registry = await startRegistry({
    dataDir,
    address: "127.0.0.1:0",
    log: silentLog,
    ...(htpasswd === undefined ? {} : { htpasswd }),
  });
  const hostsDirectory = join(work, "hosts.d");
  await writeRegistryMirrors(hostsDirectory, { mirrorHosts: [registry.address], endpoint: registry.url });
  return {
    work,
    registry,
    dataDir,
    hostsDirectory,
    stop: async () => {
      await registry.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** The layer blob's file in the registry's storage (distribution's filesystem driver layout). */
export function blobDataPath(fixture: RegistryFixture, digest: string): string {
  const hex = digest.slice("sha256:".length);
  return join(
    fixture.dataDir,
    "storage",
    "docker",
    "registry",
    "v2",
    "blobs",
    "sha256",
    hex.slice(0, 2),
    hex,
    "data",
  );
}

export interface LayerSpec {
  readonly entries: readonly TarEntry[];
  readonly compression?: LayerCompression;
  readonly mediaType?: string;
}

export async function imageOf(
  layers: readonly (LayerSpec | Layer)[],
  options: { format?: ManifestFormat; platform?: Platform } = {},
): Promise<Image> {
  const built: Layer[] = [];
  for (const spec of layers) {
    if ("digest" in spec) built.push(spec);
    else
      built.push(
        await layerFromEntries(spec.entries, {
          compression: spec.compression ?? "gzip",
          ...(spec.mediaType === undefined ? {} : { mediaType: spec.mediaType }),
        }),
      );
  }
  return buildImage({ layers: built, ...options });
}

/** An uncompressed layer from raw tar bytes (entries the builder does not make: devices, FIFOs). */
export function rawLayer(tar: Buffer): Layer {
  return {
    digest: sha256Digest(tar),
    size: tar.length,
    content: tar,
    compression: "none",
    diffId: sha256Digest(tar),
  };
}

export async function push(
  fixture: RegistryFixture,
  repository: string,
  tag: string,
  image: Image,
  credentials?: { username: string; password: string },
): Promise<string> {
  const pushed = await pushImage({
    registry: fixture.registry.address,
    repository,
    tag,
    image,
    ...(credentials === undefined ? {} : { credentials }),
  });
  return pushed.digest;
}

/** A disk entry under /disk with the given bytes. */
export function diskEntries(name: string, content: Buffer): TarEntry[] {
  return [
    { path: "disk/", type: "dir" },
    { path: `disk/${name}`, type: "file", content },
  ];
}

/** A qcow2 made by qemu-img (with a backing file name when asked). */
export async function qcow2File(dir: string, name: string, backing?: string): Promise<string> {
  const path = join(dir, name);
  const args = [
    "create",
    "-q",
    "-f",
    "qcow2",
    ...(backing === undefined ? [] : ["-u", "-b", backing, "-F", "raw"]),
    path,
    "1M",
  ];
  await promisify(execFile)("qemu-img", args);
  return path;
}

export async function writeText(path: string, text: string): Promise<string> {
  await writeFile(path, text);
  return path;
}
