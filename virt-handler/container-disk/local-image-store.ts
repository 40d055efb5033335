// The dev cluster's containerDisk source: a node-local directory in which `localhost/NAME:TAG` images are
// plain files (the test-guest builder publishes there). Layout, as the builder writes it:
//
//   <dir>/<NAME>:<TAG>/manifest.json     { schemaVersion: 1, disk?: {path, format}, kernel?: {path},
//                                          initrd?: {path}, kernelArgs?, ... }
//   <dir>/<NAME>:<TAG>/rootfs/...        the image's files at their paths inside the image
//
// Publishing renames a complete directory into place, so a reader sees the old image or the new one.
// The manifest's paths are checked as text here; the files themselves are checked when they are opened
// (image-file.ts), since an image's content may hold symbolic links or devices.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  ContainerDiskError,
  type ContainerDiskImage,
  type ContainerDiskSource,
} from "./container-disk-source.js";
import { canonicalPathInImage } from "./image-paths.js";

const NAME_PATTERN = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;
const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** "localhost/NAME[:TAG]" → the image's directory name in the store ("NAME:TAG", tag default "latest"). */
function storeEntryName(reference: string): string | undefined {
  const match = /^localhost\/([^:@]+)(?::([^:@/]+))?$/.exec(reference);
  const name = match?.[1];
  const tag = match?.[2] ?? "latest";
  if (!name || !NAME_PATTERN.test(name) || !TAG_PATTERN.test(tag)) return undefined;
  return `${name}:${tag}`;
}

/** The part of the manifest this reader uses; everything else is ignored. */
interface StoreManifest {
  schemaVersion: 1;
  disk?: { path: string; format: "qcow2" | "raw" };
  kernel?: { path: string };
  initrd?: { path: string };
  kernelArgs?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasPath(value: unknown): value is { path: string } {
  return isRecord(value) && typeof value.path === "string";
}

/** Checks the manifest's shape; returns what is wrong, or undefined. */
function manifestProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "the manifest is not a JSON object";
  if (value.schemaVersion !== 1) return `unknown schemaVersion ${JSON.stringify(value.schemaVersion)}`;
  const { disk, kernel, initrd, kernelArgs } = value;
  const diskFormat = isRecord(disk) ? disk.format : undefined;
  if (disk !== undefined && !(hasPath(disk) && (diskFormat === "qcow2" || diskFormat === "raw")))
    return "disk must be {path, format: qcow2|raw}";
  if (kernel !== undefined && !hasPath(kernel)) return "kernel must be {path}";
  if (initrd !== undefined && !hasPath(initrd)) return "initrd must be {path}";
  if (kernelArgs !== undefined && typeof kernelArgs !== "string") return "kernelArgs must be a string";
  return undefined;
}

export class LocalImageStore implements ContainerDiskSource {
  constructor(readonly directory: string) {}

  async resolve(image: string): Promise<ContainerDiskImage> {
    const entry = storeEntryName(image);
    if (entry === undefined) {
      throw new ContainerDiskError(
        "ImageNotFound",
        image,
        `${image} is not in the local image store ${this.directory}: it holds only localhost/NAME:TAG images`,
      );
    }
    const imageDir = join(this.directory, entry);
    const manifest = await this.#readManifest(image, imageDir);
    const resolved: ContainerDiskImage = { root: join(imageDir, "rootfs") };
    if (manifest.disk) {
      resolved.disk = canonicalPathInImage(image, manifest.disk.path);
      resolved.diskFormat = manifest.disk.format;
    }
    if (manifest.kernel) resolved.kernel = canonicalPathInImage(image, manifest.kernel.path);
    if (manifest.initrd) resolved.initrd = canonicalPathInImage(image, manifest.initrd.path);
    if (manifest.kernelArgs !== undefined) resolved.kernelArgs = manifest.kernelArgs;
    return resolved;
  }

  async #readManifest(image: string, imageDir: string): Promise<StoreManifest> {
    const file = join(imageDir, "manifest.json");
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new ContainerDiskError(
          "ImageNotFound",
          image,
          `${image} is not in the local image store ${this.directory}`,
          { cause: error },
        );
      }
      throw new ContainerDiskError("InvalidImage", image, `cannot read ${file}`, { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ContainerDiskError("InvalidImage", image, `${file} is not JSON`, { cause: error });
    }
    const problem = manifestProblem(parsed);
    if (problem !== undefined) throw new ContainerDiskError("InvalidImage", image, `${file}: ${problem}`);
    return parsed as StoreManifest;
  }
}
