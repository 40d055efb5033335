// A local image store full of images that try to reach host files, built with real tools (qemu-img,
// mkfifo, mknod), beside "host files" that the tests check are never touched. Each image is one way out
// of an image: a symlinked disk, a symlinked directory, a FIFO, a device, a directory, a qcow2 with a
// backing file or an external data file; and two good ones (raw, plain qcow2) to show they still work.
import { createHash } from "node:crypto";
import { mkdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { runCommand } from "../host-commands.js";

/** A host file a VM must never reach, with what it was when the store was built. */
export interface HostFile {
  path: string;
  sha256: string;
  mtimeMs: number;
}

export interface HostileImageStore {
  storeDir: string;
  /** A host file the images point at (as a backing file, a symlink target, ...). */
  secret: HostFile;
  /** The host file a qcow2's external data file option names. */
  dataFile: HostFile;
  /** Whether the device image exists (mknod needs root). */
  hasDevice: boolean;
}

interface ManifestDisk {
  path: string;
  format: "qcow2" | "raw";
}

async function sha256(path: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(path))
    .digest("hex");
}

/** Content and mtime of a host file, as now. */
export async function hostFileNow(path: string): Promise<HostFile> {
  return { path, sha256: await sha256(path), mtimeMs: (await stat(path)).mtimeMs };
}

/** A host file with known content and an old mtime (so that a write would show even within a second). */
async function makeHostFile(path: string, content: Buffer): Promise<HostFile> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  const old = new Date("2020-01-01T00:00:00Z");
  await utimes(path, old, old);
  return hostFileNow(path);
}

/** Writes `<store>/<entry>/manifest.json` and returns the image's rootfs directory (created). */
async function imageEntry(
  storeDir: string,
  entry: string,
  manifest: { disk?: ManifestDisk; kernel?: string; initrd?: string },
): Promise<string> {
  const rootfs = join(storeDir, entry, "rootfs");
  await mkdir(rootfs, { recursive: true });
  const json = {
    schemaVersion: 1,
    reference: `localhost/${entry}`,
    digest: "sha256:00",
    created: "2024-01-01T00:00:00Z",
    ...(manifest.disk ? { disk: manifest.disk } : {}),
    ...(manifest.kernel ? { kernel: { path: manifest.kernel } } : {}),
    ...(manifest.initrd ? { initrd: { path: manifest.initrd } } : {}),
  };
  await writeFile(join(storeDir, entry, "manifest.json"), JSON.stringify(json));
  return rootfs;
}

function qemuImg(args: string[]): Promise<string> {
  return runCommand("qemu-img", ["create", "-q", ...args]);
}

/** Builds the store under `workDir` (host files under workDir/host/). Takes well under a second. */
export async function makeHostileImageStore(workDir: string): Promise<HostileImageStore> {
  const storeDir = join(workDir, "images");
  const secret = await makeHostFile(
    join(workDir, "host/secret.img"),
    Buffer.alloc(64 * 1024, "host secret\n"),
  );
  const raw = (disk: string): ManifestDisk => ({ path: disk, format: "raw" });
  const qcow2 = (disk: string): ManifestDisk => ({ path: disk, format: "qcow2" });

  const good = await imageEntry(storeDir, "good:v1", { disk: qcow2("/disk/disk.qcow2") });
  await mkdir(join(good, "disk"));
  await qemuImg(["-f", "qcow2", join(good, "disk/disk.qcow2"), "1M"]);
  await writeFile(join(good, "disk/plain.img"), Buffer.alloc(1024 * 1024, 7));
  // A file the manifest does not name, for containerDisk.path: its format is read from its content.
  await qemuImg(["-f", "qcow2", "-b", secret.path, "-F", "raw", join(good, "disk/evil.qcow2")]);

  const rawImage = await imageEntry(storeDir, "raw:v1", { disk: raw("/disk/disk.img") });
  await mkdir(join(rawImage, "disk"));
  await writeFile(join(rawImage, "disk/disk.img"), Buffer.alloc(1024 * 1024, 1));

  const symlinkDisk = await imageEntry(storeDir, "symlink-disk:v1", { disk: raw("/disk/disk.img") });
  await mkdir(join(symlinkDisk, "disk"));
  await symlink(secret.path, join(symlinkDisk, "disk/disk.img"));

  // rootfs/disk -> / : the manifest's path then names the host file through the link.
  const symlinkDir = await imageEntry(storeDir, "symlink-dir:v1", { disk: raw(`/disk${secret.path}`) });
  await symlink("/", join(symlinkDir, "disk"));

  const fifo = await imageEntry(storeDir, "fifo:v1", { disk: raw("/disk/disk.img") });
  await mkdir(join(fifo, "disk"));
  await runCommand("mkfifo", [join(fifo, "disk/disk.img")]);

  const device = await imageEntry(storeDir, "device:v1", { disk: raw("/disk/disk.img") });
  await mkdir(join(device, "disk"));
  const hasDevice = process.getuid?.() === 0;
  if (hasDevice) await runCommand("mknod", [join(device, "disk/disk.img"), "c", "1", "3"]);

  const directory = await imageEntry(storeDir, "directory:v1", { disk: raw("/disk/disk.img") });
  await mkdir(join(directory, "disk/disk.img"), { recursive: true });

  const backing = await imageEntry(storeDir, "backing:v1", { disk: qcow2("/disk/disk.qcow2") });
  await mkdir(join(backing, "disk"));
  await qemuImg(["-f", "qcow2", "-b", secret.path, "-F", "raw", join(backing, "disk/disk.qcow2")]);

  // The same hostile bytes, but the manifest says raw: QEMU is told raw and never reads the header's name.
  const backingAsRaw = await imageEntry(storeDir, "backing-as-raw:v1", { disk: raw("/disk/disk.qcow2") });
  await mkdir(join(backingAsRaw, "disk"));
  await qemuImg(["-f", "qcow2", "-b", secret.path, "-F", "raw", join(backingAsRaw, "disk/disk.qcow2")]);

  const dataFilePath = join(workDir, "host/data-file.img");
  const dataImage = await imageEntry(storeDir, "data-file:v1", { disk: qcow2("/disk/disk.qcow2") });
  await mkdir(join(dataImage, "disk"));
  await mkdir(dirname(dataFilePath), { recursive: true });
  await qemuImg(["-f", "qcow2", "-o", `data_file=${dataFilePath}`, join(dataImage, "disk/disk.qcow2"), "1M"]);
  const old = new Date("2020-01-01T00:00:00Z");
  await utimes(dataFilePath, old, old);

  const notQcow2 = await imageEntry(storeDir, "not-qcow2:v1", { disk: qcow2("/disk/disk.qcow2") });
  await mkdir(join(notQcow2, "disk"));
  await writeFile(join(notQcow2, "disk/disk.qcow2"), Buffer.alloc(1024 * 1024, 2));

  const kernel = await imageEntry(storeDir, "kernel:v1", { kernel: "/boot/vmlinuz", initrd: "/boot/initrd" });
  await mkdir(join(kernel, "boot"));
  await writeFile(join(kernel, "boot/vmlinuz"), "a kernel");
  await writeFile(join(kernel, "boot/initrd"), "an initrd");
  await symlink(secret.path, join(kernel, "boot/vmlinuz-link"));
  await symlink(secret.path, join(kernel, "boot/initrd-link"));

  return { storeDir, secret, dataFile: await hostFileNow(dataFilePath), hasDevice };
}
