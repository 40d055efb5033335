// ensureTestGuest(): the test guest, built once per set of inputs and published to the local image store.
// The cache key is a hash of everything the build reads: the Debian package files (their names pin
// exact versions), the recipe, and the builder's own compiled code (so a change to a script or a step
// rebuilds). A cached call only lists two directories, hashes a few small files and reads one manifest.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuiltGuestFiles, buildGuest, type GuestRecipe } from "./build-guest.js";
import { type BuildLog, silentBuildLog } from "./build-log.js";
import {
  type DebianPackageFile,
  ensureHostCommands,
  ensureKernelPackage,
  ensurePackage,
} from "./debian-packages.js";
import { withFileLock } from "./file-lock.js";
import { GUEST_AGENT_PACKAGES } from "./guest-agent.js";
import { TEST_GUEST_ROOT_LABEL } from "./guest-console.js";
import {
  type ImageManifest,
  imageDirectory,
  parseImageReference,
  publishImage,
  readStoredImage,
} from "./image-store.js";
import { SSH_SERVER_PACKAGES } from "./ssh-server.js";

export const DEFAULT_TEST_GUEST_IMAGE = "localhost/kubevirt-ts-test-guest:latest";

/** Kernel arguments for booting from the initramfs alone. */
export const TEST_GUEST_KERNEL_ARGS = "console=ttyS0 quiet panic=-1";
/** Kernel arguments for booting with the root disk attached (any bus: it is found by its label). */
export const TEST_GUEST_DISK_KERNEL_ARGS = `${TEST_GUEST_KERNEL_ARGS} root=LABEL=${TEST_GUEST_ROOT_LABEL}`;

// virtio (PCI, block, net, SCSI), ext4 for the root disk, AHCI + sr for KubeVirt's default SATA cdrom, sd for
// SCSI disks (hotplugged ones go on the virtio-scsi controller),
// isofs for cidata, and the ACPI power button with evdev so that busybox acpid can see it.
// crc32c_generic is ext4's soft dependency (it asks for "crc32c" through the crypto API, not by symbol).
const GUEST_MODULES = [
  "virtio_pci",
  "virtio_blk",
  "virtio_net",
  "virtio_scsi",
  "crc32c_generic",
  "ext4",
  "ahci",
  "sr_mod",
  "sd_mod",
  "isofs",
  "button",
  "evdev",
  "virtio_console",
];
// Scan SCSI hosts synchronously, so the cdrom exists by the time the cidata volume is looked for.
const MODULE_PARAMETERS = { scsi_mod: "scan=sync" };

/** The SSH server's and the guest agent's packages (libc6 is in both). */
const ROOT_DISK_PACKAGES = [
  ...new Set([...Object.keys(SSH_SERVER_PACKAGES), ...Object.keys(GUEST_AGENT_PACKAGES)]),
];

const HOST_COMMANDS = {
  "dpkg-deb": "dpkg",
  "apt-get": "apt",
  "mkfs.ext4": "e2fsprogs",
  "qemu-img": "qemu-utils",
};

export interface TestGuestOptions {
  /** Downloads and builds. Default `<repository>/.local/guest-cache`. */
  cacheDir?: string;
  /** The local image store. Default `<repository>/.local/images`. */
  storeDir?: string;
  /** Default "localhost/kubevirt-ts-test-guest:latest". */
  image?: string;
  /** A versioned kernel package ("linux-image-6.1.0-57-amd64"); default: the one already downloaded, else Debian's current one. */
  kernelPackage?: string;
  log?: BuildLog;
  /** How long to wait for another process that is building the same cache. Default 10 minutes. */
  lockTimeoutMs?: number;
}

export interface TestGuest {
  /** The image reference it is published under, the store, and the image's directory in it. */
  image: string;
  storeDir: string;
  imageDirectory: string;
  /** "sha256:…" of the build inputs; also the published manifest's digest. */
  digest: string;
  /** Files in the build cache (content-addressed, never rewritten). Use overlays, never write to `disk`. */
  kernel: string;
  initrd: string;
  disk: string;
  diskFormat: "qcow2";
  kernelVersion: string;
  kernelArgs: string;
  diskKernelArgs: string;
  /** True when this call built the guest, false when it came from the cache. */
  built: boolean;
}

/** The repository root: the nearest directory above this module with a package.json. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("cannot find the repository root (no package.json above the guest builder)");
    dir = parent;
  }
  return dir;
}

// The modules whose code decides what a build produces (keep in step with the imports of build-guest.ts).
const BUILDER_MODULES = [
  "build-guest",
  "cpio-newc",
  "debian-packages",
  "disk-image",
  "guest-console",
  "guest-scripts",
  "kernel-modules",
  "ssh-server",
];

/** The builder's compiled code, which decides what a build produces as much as the recipe does. */
async function builderCodeHash(): Promise<string> {
  const dir = dirname(fileURLToPath(import.meta.url));
  const extension = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const hash = createHash("sha256");
  for (const name of BUILDER_MODULES) hash.update(name).update(await readFile(join(dir, name + extension)));
  return hash.digest("hex");
}

async function recipeDigest(recipe: GuestRecipe): Promise<string> {
  const inputs = {
    kernelPackage: recipe.kernelPackage.fileName,
    busyboxPackage: recipe.busyboxPackage.fileName,
    sshPackages: recipe.sshPackages.map((deb) => deb.fileName),
    modules: recipe.modules,
    moduleParameters: recipe.moduleParameters,
    diskSizeMiB: recipe.diskSizeMiB,
    builder: await builderCodeHash(),
  };
  return `sha256:${createHash("sha256").update(JSON.stringify(inputs)).digest("hex")}`;
}

/** build.json in a build directory: what was built from what (file paths relative to the directory). */
interface BuildRecord extends BuiltGuestFiles {
  digest: string;
  kernelPackage: string;
  busyboxPackage: string;
}

/** The build in `buildDir`, with absolute paths; undefined when there is none. */
async function readBuildRecord(buildDir: string): Promise<BuildRecord | undefined> {
  let record: BuildRecord;
  try {
    record = JSON.parse(await readFile(join(buildDir, "build.json"), "utf8")) as BuildRecord;
  } catch {
    return undefined;
  }
  return {
    ...record,
    kernel: join(buildDir, record.kernel),
    initrd: join(buildDir, record.initrd),
    disk: join(buildDir, record.disk),
  };
}

const STALE_BUILD_MS = 24 * 3600_000;

/** Removes builds of other inputs (older builder code, other packages) that nobody has made for a day. */
async function pruneStaleBuilds(buildsDir: string, keep: string): Promise<void> {
  for (const name of await readdir(buildsDir)) {
    const dir = join(buildsDir, name);
    if (dir === keep || name.startsWith(".")) continue;
    const made = await stat(join(dir, "build.json")).catch(() => undefined);
    if (made && Date.now() - made.mtimeMs > STALE_BUILD_MS) await rm(dir, { recursive: true, force: true });
  }
}

/** Builds into a private directory and renames it into place, so a build dir is complete or absent. */
async function buildIntoCache(
  recipe: GuestRecipe,
  digest: string,
  buildDir: string,
  log: BuildLog,
): Promise<BuildRecord> {
  const scratch = join(dirname(buildDir), `.building-${randomBytes(6).toString("hex")}`);
  try {
    const outputDir = join(scratch, "out");
    const files = await buildGuest(recipe, outputDir, join(scratch, "work"), log);
    const record: BuildRecord = {
      ...files,
      kernel: relative(outputDir, files.kernel),
      initrd: relative(outputDir, files.initrd),
      disk: relative(outputDir, files.disk),
      digest,
      kernelPackage: recipe.kernelPackage.fileName,
      busyboxPackage: recipe.busyboxPackage.fileName,
    };
    await writeFile(join(scratch, "out", "build.json"), `${JSON.stringify(record, null, 2)}\n`);
    await rename(outputDir, buildDir);
    const stored = await readBuildRecord(buildDir);
    if (!stored) throw new Error(`the build in ${buildDir} has no readable build.json`);
    return stored;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function imageManifest(image: string, record: BuildRecord): ImageManifest {
  return {
    schemaVersion: 1,
    reference: image,
    digest: record.digest,
    created: new Date().toISOString(),
    disk: { path: "/disk/disk.qcow2", format: "qcow2" },
    kernel: { path: "/boot/vmlinuz" },
    initrd: { path: "/boot/initramfs.gz" },
    kernelArgs: TEST_GUEST_DISK_KERNEL_ARGS,
    annotations: {
      "kubevirt-ts.io/kernel-package": record.kernelPackage,
      "kubevirt-ts.io/busybox-package": record.busyboxPackage,
      "kubevirt-ts.io/kernel-version": record.kernelVersion,
      "kubevirt-ts.io/note":
        "the disk has no boot loader: boot the kernel and initrd, which mount it by its label",
    },
  };
}

async function ensurePublished(image: string, storeDir: string, record: BuildRecord): Promise<void> {
  await publishImage({
    storeDir,
    manifest: imageManifest(image, record),
    files: [
      { source: record.disk, pathInImage: "/disk/disk.qcow2" },
      { source: record.kernel, pathInImage: "/boot/vmlinuz" },
      { source: record.initrd, pathInImage: "/boot/initramfs.gz" },
    ],
  });
}

async function ensurePackages(
  dir: string,
  names: readonly string[],
  log: BuildLog,
): Promise<DebianPackageFile[]> {
  const packages: DebianPackageFile[] = [];
  for (const name of names) packages.push(await ensurePackage(dir, name, log));
  return packages;
}

/** The test guest: from the cache when its inputs are unchanged, built (about 5 s) otherwise; published to the store. */
export async function ensureTestGuest(options: TestGuestOptions = {}): Promise<TestGuest> {
  const log = options.log ?? silentBuildLog;
  const cacheDir = resolve(options.cacheDir ?? join(repositoryRoot(), ".local/guest-cache"));
  const storeDir = resolve(options.storeDir ?? join(repositoryRoot(), ".local/images"));
  const image = options.image ?? DEFAULT_TEST_GUEST_IMAGE;
  const debDir = join(cacheDir, "debs");
  await mkdir(join(cacheDir, "builds"), { recursive: true });
  await mkdir(debDir, { recursive: true });

  const resolveRecipe = async (): Promise<GuestRecipe> => ({
    kernelPackage: await ensureKernelPackage(debDir, options.kernelPackage, log),
    busyboxPackage: await ensurePackage(debDir, "busybox-static", log),
    sshPackages: await ensurePackages(debDir, ROOT_DISK_PACKAGES, log),
    modules: GUEST_MODULES,
    moduleParameters: MODULE_PARAMETERS,
    diskSizeMiB: 32,
  });
  const locked = <T>(action: () => Promise<T>) =>
    withFileLock(join(cacheDir, ".lock"), options.lockTimeoutMs ?? 600_000, action);

  // Resolving may download (when the cache has no packages yet), so it runs under the lock.
  const recipe = await locked(resolveRecipe);
  const digest = await recipeDigest(recipe);
  const buildDir = join(cacheDir, "builds", digest.slice("sha256:".length, "sha256:".length + 16));
  let record = await readBuildRecord(buildDir);
  let built = false;
  const stored = await readStoredImage(storeDir, image);
  if (!record || stored?.manifest.digest !== digest) {
    record = await locked(async () => {
      let current = await readBuildRecord(buildDir);
      if (!current) {
        await ensureHostCommands(HOST_COMMANDS, log);
        current = await buildIntoCache(recipe, digest, buildDir, log);
        built = true;
        await pruneStaleBuilds(dirname(buildDir), buildDir);
      }
      await ensurePublished(image, storeDir, current);
      return current;
    });
  }
  return {
    image,
    storeDir,
    imageDirectory: imageDirectory(storeDir, parseImageReference(image)),
    digest,
    kernel: record.kernel,
    initrd: record.initrd,
    disk: record.disk,
    diskFormat: "qcow2",
    kernelVersion: record.kernelVersion,
    kernelArgs: TEST_GUEST_KERNEL_ARGS,
    diskKernelArgs: TEST_GUEST_DISK_KERNEL_ARGS,
    built,
  };
}
