// ensureCloudGuest(): the Debian 12 cloud guest, built once per set of inputs under .local/cloud-guest/.
// The cache key hashes the recipe (suite, mirror, packages, disk shape, kernel arguments, script version)
// and the builder's own compiled code, so that changing a step rebuilds. Package versions are not in the
// key: a cached build stays what it was until an input changes (delete the build to refresh it).
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildLog, silentBuildLog } from "../guest/build-log.js";
import { ensureHostCommands } from "../guest/debian-packages.js";
import { withFileLock } from "../guest/file-lock.js";
import { type BuiltCloudGuestFiles, buildCloudGuest } from "./build-cloud-guest.js";
import {
  CLOUD_GUEST_DISK_SIZE_MIB,
  CLOUD_GUEST_KERNEL_ARGS,
  CLOUD_GUEST_MIRROR,
  CLOUD_GUEST_PACKAGES,
  CLOUD_GUEST_PARTITION_OFFSET_BYTES,
  CLOUD_GUEST_ROOT_LABEL,
  CLOUD_GUEST_SCRIPT_VERSION,
  CLOUD_GUEST_SUITE,
} from "./cloud-guest-recipe.js";

const HOST_COMMANDS = {
  debootstrap: "debootstrap",
  chroot: "coreutils",
  extlinux: "extlinux",
  sfdisk: "fdisk",
  "mkfs.ext4": "e2fsprogs",
  mount: "mount",
  "qemu-img": "qemu-utils",
};

// The modules whose code decides what a build produces (keep in step with build-cloud-guest.ts's imports).
const BUILDER_MODULES = [
  "bootable-disk",
  "build-cloud-guest",
  "cloud-guest-recipe",
  "debootstrap",
  "guest-configuration",
];

export interface CloudGuestOptions {
  /** Downloaded packages and builds. Default `<repository>/.local/cloud-guest`. */
  cacheDir?: string;
  log?: BuildLog;
  /** How long to wait for another process building into the same cache. Default 15 minutes. */
  lockTimeoutMs?: number;
}

export interface CloudGuest {
  /** A disk that boots on its own (MBR, extlinux, ext4 root labelled debian-root). Never write to it: use an overlay. */
  disk: string;
  format: "qcow2";
  /** The same kernel and initrd as on the disk, for a direct kernel boot. */
  kernel: string;
  initrd: string;
  kernelVersion: string;
  /** What the boot loader passes; also right for a direct kernel boot. */
  kernelArgs: string;
  rootLabel: string;
  /** "sha256:…" of the build inputs. */
  digest: string;
  /** True when this call built the guest, false when it came from the cache. */
  built: boolean;
}

/** build.json in a build directory (paths relative to it). */
interface BuildRecord extends BuiltCloudGuestFiles {
  digest: string;
  packages: readonly string[];
}

function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("cannot find the repository root (no package.json above the builder)");
    dir = parent;
  }
  return dir;
}

async function builderCodeHash(): Promise<string> {
  const dir = dirname(fileURLToPath(import.meta.url));
  const extension = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const hash = createHash("sha256");
  for (const name of BUILDER_MODULES) hash.update(name).update(await readFile(join(dir, name + extension)));
  return hash.digest("hex");
}

/** The digest of everything a build reads. */
export async function cloudGuestInputsDigest(): Promise<string> {
  const inputs = {
    suite: CLOUD_GUEST_SUITE,
    mirror: CLOUD_GUEST_MIRROR,
    packages: CLOUD_GUEST_PACKAGES,
    diskSizeMiB: CLOUD_GUEST_DISK_SIZE_MIB,
    partitionOffsetBytes: CLOUD_GUEST_PARTITION_OFFSET_BYTES,
    kernelArgs: CLOUD_GUEST_KERNEL_ARGS,
    scriptVersion: CLOUD_GUEST_SCRIPT_VERSION,
    builder: await builderCodeHash(),
  };
  return `sha256:${createHash("sha256").update(JSON.stringify(inputs)).digest("hex")}`;
}

async function readBuildRecord(buildDir: string): Promise<BuildRecord | undefined> {
  let record: BuildRecord;
  try {
    record = JSON.parse(await readFile(join(buildDir, "build.json"), "utf8")) as BuildRecord;
  } catch {
    return undefined;
  }
  return {
    ...record,
    disk: join(buildDir, record.disk),
    kernel: join(buildDir, record.kernel),
    initrd: join(buildDir, record.initrd),
  };
}

/** Builds into a private directory and renames it into place, so a build directory is complete or absent. */
async function buildIntoCache(cacheDir: string, buildDir: string, digest: string, log: BuildLog) {
  const scratch = join(cacheDir, "builds", `.building-${randomBytes(6).toString("hex")}`);
  try {
    const outputDir = join(scratch, "out");
    const files = await buildCloudGuest(outputDir, join(scratch, "work"), join(cacheDir, "debs"), log);
    const record: BuildRecord = {
      ...files,
      disk: relative(outputDir, files.disk),
      kernel: relative(outputDir, files.kernel),
      initrd: relative(outputDir, files.initrd),
      digest,
      packages: CLOUD_GUEST_PACKAGES,
    };
    await writeFile(join(outputDir, "build.json"), `${JSON.stringify(record, null, 2)}\n`);
    await rename(outputDir, buildDir);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const stored = await readBuildRecord(buildDir);
  if (!stored) throw new Error(`the build in ${buildDir} has no readable build.json`);
  return stored;
}

const STALE_BUILD_MS = 24 * 3600_000;

/** Removes builds of other inputs that nobody has made for a day (each is about 160 MiB). */
async function pruneStaleBuilds(buildsDir: string, keep: string): Promise<void> {
  for (const name of await readdir(buildsDir)) {
    const dir = join(buildsDir, name);
    if (dir === keep || name.startsWith(".")) continue;
    const made = await stat(join(dir, "build.json")).catch(() => undefined);
    if (made && Date.now() - made.mtimeMs > STALE_BUILD_MS) await rm(dir, { recursive: true, force: true });
  }
}

async function buildLocked(cacheDir: string, buildDir: string, digest: string, log: BuildLog) {
  if (process.getuid?.() !== 0) {
    throw new Error(
      "building the cloud guest needs root (debootstrap, chroot and a loop mount); run it as root",
    );
  }
  await ensureHostCommands(HOST_COMMANDS, log);
  const record = await buildIntoCache(cacheDir, buildDir, digest, log);
  await pruneStaleBuilds(dirname(buildDir), buildDir);
  return record;
}

/** The cloud guest: from the cache when its inputs are unchanged, built (a minute or two) otherwise. */
export async function ensureCloudGuest(options: CloudGuestOptions = {}): Promise<CloudGuest> {
  const log = options.log ?? silentBuildLog;
  const cacheDir = resolve(options.cacheDir ?? join(repositoryRoot(), ".local/cloud-guest"));
  await mkdir(join(cacheDir, "builds"), { recursive: true });
  const digest = await cloudGuestInputsDigest();
  const buildDir = join(cacheDir, "builds", digest.slice("sha256:".length, "sha256:".length + 16));
  let built = false;
  let record = await readBuildRecord(buildDir);
  if (!record) {
    record = await withFileLock(join(cacheDir, ".lock"), options.lockTimeoutMs ?? 900_000, async () => {
      // Another process may have built it while this one waited for the lock.
      const current = await readBuildRecord(buildDir);
      if (current) return current;
      built = true;
      return buildLocked(cacheDir, buildDir, digest, log);
    });
  }
  return {
    disk: record.disk,
    format: "qcow2",
    kernel: record.kernel,
    initrd: record.initrd,
    kernelVersion: record.kernelVersion,
    kernelArgs: CLOUD_GUEST_KERNEL_ARGS,
    rootLabel: CLOUD_GUEST_ROOT_LABEL,
    digest,
    built,
  };
}
