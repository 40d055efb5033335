// The node-local image store: containerDisk-style images `localhost/NAME:TAG` kept as plain files.
//
// Layout (one directory per image; ":" cannot occur in a NAME, so names with "/" never collide with tags):
//
//   <store>/<NAME>:<TAG>/manifest.json
//   <store>/<NAME>:<TAG>/rootfs/...            the image's files, at their paths inside the image
//
// manifest.json (see ImageManifest) says which of the files are the disk, the kernel and the initrd, with
// paths as seen inside the image ("/disk/disk.qcow2", as a KubeVirt containerDisk keeps its disk under
// /disk/, and "/boot/vmlinuz" as a kernelBoot container would). Readers must treat the files as read-only
// and give each VM its own copy-on-write overlay.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface ImageReference {
  /** e.g. "kubevirt-ts-test-guest" (may contain "/"). */
  name: string;
  tag: string;
}

export interface ImageManifest {
  schemaVersion: 1;
  /** "localhost/NAME:TAG". */
  reference: string;
  /** Identifies the content: "sha256:<hex>" (for the test guest, the hash of its build inputs). */
  digest: string;
  /** RFC 3339. */
  created: string;
  disk?: { path: string; format: "qcow2" | "raw" };
  kernel?: { path: string };
  initrd?: { path: string };
  /** The kernel command line to boot `kernel` and `initrd` with. */
  kernelArgs?: string;
  annotations?: Record<string, string>;
}

const NAME_PATTERN = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;
const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** Parses "localhost/NAME[:TAG]" (the tag defaults to "latest"); other registries are not in the store. */
export function parseImageReference(reference: string): ImageReference {
  const match = /^localhost\/([^:@]+)(?::([^:@/]+))?$/.exec(reference);
  const name = match?.[1];
  const tag = match?.[2] ?? "latest";
  if (!name || !NAME_PATTERN.test(name) || !TAG_PATTERN.test(tag)) {
    throw new Error(`"${reference}" is not a local image reference (localhost/NAME:TAG, lower-case NAME)`);
  }
  return { name, tag };
}

export function formatImageReference(image: ImageReference): string {
  return `localhost/${image.name}:${image.tag}`;
}

export function imageDirectory(storeDir: string, image: ImageReference): string {
  return join(storeDir, `${image.name}:${image.tag}`);
}

/** An image's file path inside the image ("/boot/vmlinuz") → its path on the host. */
export function imageFilePath(imageDir: string, pathInImage: string): string {
  const relative = pathInImage.replace(/^\/+/, "");
  if (relative.split("/").includes("..")) throw new Error(`image file path ${pathInImage} leaves the image`);
  return join(imageDir, "rootfs", relative);
}

export interface StoredImage {
  manifest: ImageManifest;
  directory: string;
  /** Host paths of the files the manifest names. */
  disk?: string;
  kernel?: string;
  initrd?: string;
}

/** Reads an image from the store; undefined when the store does not have it. */
export async function readStoredImage(storeDir: string, reference: string): Promise<StoredImage | undefined> {
  const directory = imageDirectory(storeDir, parseImageReference(reference));
  let text: string;
  try {
    text = await readFile(join(directory, "manifest.json"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the manifest of ${reference}`, { cause: error });
  }
  const manifest = JSON.parse(text) as ImageManifest;
  if (manifest.schemaVersion !== 1) throw new Error(`${reference}: unknown manifest schemaVersion`);
  const stored: StoredImage = { manifest, directory };
  if (manifest.disk) stored.disk = imageFilePath(directory, manifest.disk.path);
  if (manifest.kernel) stored.kernel = imageFilePath(directory, manifest.kernel.path);
  if (manifest.initrd) stored.initrd = imageFilePath(directory, manifest.initrd.path);
  return stored;
}

export interface PublishRequest {
  storeDir: string;
  manifest: ImageManifest;
  /** Host file → path inside the image. */
  files: ReadonlyArray<{ source: string; pathInImage: string }>;
}

/**
 * Puts an image into the store, replacing what the tag pointed to. Does nothing when the tag already has
 * this digest. The new directory is assembled aside and renamed into place, so readers never see half of it.
 */
export async function publishImage(request: PublishRequest): Promise<StoredImage> {
  const { storeDir, manifest } = request;
  const existing = await readStoredImage(storeDir, manifest.reference);
  if (existing?.manifest.digest === manifest.digest) return existing;
  const target = imageDirectory(storeDir, parseImageReference(manifest.reference));
  await mkdir(dirname(target), { recursive: true });
  const staging = `${target}.new-${randomBytes(6).toString("hex")}`;
  try {
    for (const file of request.files) {
      const destination = imageFilePath(staging, file.pathInImage);
      await mkdir(dirname(destination), { recursive: true });
      await copyFile(file.source, destination, constants.COPYFILE_FICLONE);
    }
    await writeFile(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const retired = `${target}.old-${randomBytes(6).toString("hex")}`;
    if (existing) await rename(target, retired);
    await rename(staging, target);
    await rm(retired, { recursive: true, force: true });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const stored = await readStoredImage(storeDir, manifest.reference);
  if (!stored) throw new Error(`${manifest.reference} vanished from ${storeDir} right after publishing`);
  return stored;
}
