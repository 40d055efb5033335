// Debian packages the guest builder needs: host commands it installs when missing (CI machines start
// bare), and the kernel and busybox packages it downloads (never installs) and unpacks.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { BuildLog } from "./build-log.js";
import { commandExists, runCommand } from "./run-command.js";

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
// Wait for another apt or dpkg run (a parallel test, the host set-up) instead of failing on its lock.
const APT_LOCK_WAIT = ["-o", "DPkg::Lock::Timeout=120"];

/** Runs an apt command; when it fails because the package lists are missing or stale, updates them once and retries. */
async function withFreshPackageLists<T>(action: () => Promise<T>, log: BuildLog): Promise<T> {
  try {
    return await action();
  } catch (error) {
    log.info(
      { err: error instanceof Error ? error.message : String(error) },
      "updating the apt package lists",
    );
    await runCommand("apt-get", ["update", "-qq", ...APT_LOCK_WAIT], { env: APT_ENV });
    return await action();
  }
}

/**
 * Makes sure each command exists, installing the Debian package that provides it when it does not.
 * `commands` maps a command to its package, e.g. `{ "qemu-img": "qemu-utils" }`.
 */
export async function ensureHostCommands(commands: Record<string, string>, log: BuildLog): Promise<void> {
  const missing: string[] = [];
  for (const [command, packageName] of Object.entries(commands)) {
    if (!(await commandExists(command))) missing.push(packageName);
  }
  if (missing.length === 0) return;
  const packages = [...new Set(missing)];
  if (process.getuid?.() !== 0) {
    throw new Error(
      `the test guest builder needs these Debian packages; install them as root: ${packages.join(" ")}`,
    );
  }
  log.info({ packages }, "installing Debian packages");
  const install = () =>
    runCommand(
      "apt-get",
      ["install", "-y", "-qq", "--no-install-recommends", ...APT_LOCK_WAIT, ...packages],
      {
        env: APT_ENV,
      },
    );
  await withFreshPackageLists(install, log);
}

/** A downloaded .deb file. */
export interface DebianPackageFile {
  /** Package name, e.g. "linux-image-6.1.0-57-amd64". */
  name: string;
  /** File name, e.g. "linux-image-6.1.0-57-amd64_6.1.192-3_amd64.deb"; names a package version exactly. */
  fileName: string;
  path: string;
}

function packageNameOf(fileName: string): string {
  return fileName.slice(0, fileName.indexOf("_"));
}

/** The most recently downloaded .deb in `dir` whose package name matches, if any. */
async function findDownloaded(
  dir: string,
  matches: (name: string) => boolean,
): Promise<DebianPackageFile | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const candidates = names.filter((name) => name.endsWith("_amd64.deb") && matches(packageNameOf(name)));
  const dated = await Promise.all(
    candidates.map(async (fileName) => ({ fileName, mtime: (await stat(join(dir, fileName))).mtimeMs })),
  );
  const newest = dated.sort((a, b) => b.mtime - a.mtime)[0];
  if (!newest) return undefined;
  return {
    name: packageNameOf(newest.fileName),
    fileName: newest.fileName,
    path: join(dir, newest.fileName),
  };
}

/** Downloads one package into `dir` (through a private directory, so parallel downloads cannot collide). */
async function download(packageName: string, dir: string, log: BuildLog): Promise<DebianPackageFile> {
  const scratch = join(dir, `.download-${randomBytes(6).toString("hex")}`);
  await mkdir(scratch, { recursive: true });
  try {
    log.info({ package: packageName }, "downloading a Debian package");
    // Root's apt downloads as user _apt, which cannot write to root's scratch directory (a warning, then
    // an unsandboxed download anyway): say so up front.
    const sandbox = process.getuid?.() === 0 ? ["-o", "APT::Sandbox::User=root"] : [];
    const args = ["download", "-qq", ...sandbox, packageName];
    await withFreshPackageLists(() => runCommand("apt-get", args, { cwd: scratch, env: APT_ENV }), log);
    const fileName = (await readdir(scratch)).find((name) => name.endsWith(".deb"));
    if (!fileName) throw new Error(`apt-get download ${packageName} produced no .deb file`);
    await rename(join(scratch, fileName), join(dir, fileName));
    return { name: packageNameOf(fileName), fileName, path: join(dir, fileName) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The versioned kernel package that `linux-image-amd64` currently depends on, e.g. "linux-image-6.1.0-57-amd64". */
async function currentKernelPackage(log: BuildLog): Promise<string> {
  const query = async () => {
    const { stdout } = await runCommand("apt-cache", ["depends", "linux-image-amd64"]);
    const name = /Depends: (linux-image-\S+-amd64)\s/.exec(stdout)?.[1];
    if (!name) throw new Error("apt-cache knows no linux-image-amd64 dependency");
    return name;
  };
  return withFreshPackageLists(query, log);
}

const isVersionedKernelImage = (name: string): boolean => /^linux-image-\d\S*-amd64$/.test(name);

/**
 * The kernel package to build from: `requested` if given, else the last one downloaded into `dir`, else the
 * one Debian's `linux-image-amd64` points to now. Reusing a downloaded one keeps cached builds offline and
 * stable.
 */
export async function ensureKernelPackage(
  dir: string,
  requested: string | undefined,
  log: BuildLog,
): Promise<DebianPackageFile> {
  const matches = requested ? (name: string) => name === requested : isVersionedKernelImage;
  const downloaded = await findDownloaded(dir, matches);
  if (downloaded) return downloaded;
  return download(requested ?? (await currentKernelPackage(log)), dir, log);
}

/** A package by name: the last one downloaded into `dir`, else today's candidate version. */
export async function ensurePackage(
  dir: string,
  packageName: string,
  log: BuildLog,
): Promise<DebianPackageFile> {
  return (await findDownloaded(dir, (name) => name === packageName)) ?? download(packageName, dir, log);
}

/** Unpacks a .deb's files (all, or only those matching tar wildcards such as "./boot/vmlinuz-*"). */
export async function unpackDeb(
  deb: string,
  targetDir: string,
  patterns: readonly string[] = [],
): Promise<void> {
  await mkdir(targetDir, { recursive: true });
  if (patterns.length === 0) {
    await runCommand("dpkg-deb", ["-x", deb, targetDir]);
    return;
  }
  const script = 'deb=$1 dir=$2; shift 2; dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" --wildcards "$@"';
  await runCommand("bash", ["-o", "pipefail", "-c", script, "unpack", deb, targetDir, ...patterns]);
}
