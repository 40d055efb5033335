// Builds the test guest's files from a Debian kernel package and busybox-static: the kernel, an initramfs
// (busybox, drivers, stage 1 and stage 2 scripts) and an ext4 root disk (busybox, stage 2 and the SSH
// server, dropbear) as qcow2.
import { copyFile, mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { BuildLog } from "./build-log.js";
import { type CpioEntry, cpioNewcArchive, directoryCpioEntries } from "./cpio-newc.js";
import type { DebianPackageFile } from "./debian-packages.js";
import { unpackDeb } from "./debian-packages.js";
import { convertRawToQcow2, createExt4Image } from "./disk-image.js";
import { installGuestAgent, removeGuestAgent } from "./guest-agent.js";
import { TEST_GUEST_ROOT_LABEL } from "./guest-console.js";
import { type GuestFile, stage1Files, stage2Files } from "./guest-scripts.js";
import { type KernelModule, resolveModuleLoadOrder } from "./kernel-modules.js";
import { runCommand } from "./run-command.js";
import { installSshServer, removeSshServer } from "./ssh-server.js";

const gzipAsync = promisify(gzip);

export interface GuestRecipe {
  kernelPackage: DebianPackageFile;
  busyboxPackage: DebianPackageFile;
  /**
   * dropbear-bin, qemu-guest-agent and the libraries they need (ssh-server.ts and guest-agent.ts name
   * them), for the root disk.
   */
  sshPackages: readonly DebianPackageFile[];
  /** Modules the initramfs loads (their dependencies are added), in this order. */
  modules: readonly string[];
  /** insmod parameters by module name. */
  moduleParameters: Readonly<Record<string, string>>;
  diskSizeMiB: number;
}

export interface BuiltGuestFiles {
  kernel: string;
  initrd: string;
  /** The root disk, qcow2. */
  disk: string;
  kernelVersion: string;
  /** Modules in load order, dependencies included. */
  modules: string[];
}

// Empty directories the guest mounts on or writes to.
const GUEST_DIRECTORIES = ["dev", "proc", "sys", "run", "tmp", "root", "newroot", "var/log", "etc/init.d"];

async function writeGuestFiles(root: string, files: readonly GuestFile[]): Promise<void> {
  for (const file of files) {
    const path = join(root, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content, { mode: file.mode });
  }
}

/** The stage 2 tree: busybox with a link per applet, the scripts, and the directories the guest needs. */
async function assembleRootTree(root: string, busyboxBinary: string): Promise<void> {
  for (const dir of ["bin", "sbin", ...GUEST_DIRECTORIES]) await mkdir(join(root, dir), { recursive: true });
  await copyFile(busyboxBinary, join(root, "bin/busybox"));
  const { stdout } = await runCommand(busyboxBinary, ["--list"]);
  for (const applet of stdout.split("\n").filter((name) => name !== "" && name !== "busybox")) {
    await symlink("busybox", join(root, "bin", applet));
  }
  await symlink("../bin/busybox", join(root, "sbin/init"));
  await symlink("../run", join(root, "var/run"));
  await writeGuestFiles(root, stage2Files());
}

async function unpackKernel(deb: string, dir: string): Promise<{ kernelVersion: string; vmlinuz: string }> {
  await unpackDeb(deb, dir, ["./boot/vmlinuz-*", "./lib/modules/*"]);
  const versions = await readdir(join(dir, "lib/modules"));
  const kernelVersion = versions[0];
  if (versions.length !== 1 || !kernelVersion) {
    throw new Error(`expected one kernel version in ${deb}, found ${versions.join(", ") || "none"}`);
  }
  return { kernelVersion, vmlinuz: join(dir, "boot", `vmlinuz-${kernelVersion}`) };
}

function moduleLoadOrder(
  modules: readonly KernelModule[],
  parameters: Readonly<Record<string, string>>,
): string {
  return modules
    .map((module) => `${[module.name, parameters[module.name]].filter(Boolean).join(" ")}\n`)
    .join("");
}

/** The initramfs tree: the root tree plus stage 1 and the modules; then archived with a console device. */
async function writeInitramfs(
  root: string,
  modules: readonly KernelModule[],
  recipe: GuestRecipe,
  initrd: string,
): Promise<void> {
  await writeGuestFiles(root, stage1Files(moduleLoadOrder(modules, recipe.moduleParameters)));
  for (const module of modules) await copyFile(module.path, join(root, "lib/modules", `${module.name}.ko`));
  // The kernel opens /dev/console for /init before anything is mounted.
  const console: CpioEntry = { kind: "char-device", path: "dev/console", mode: 0o600, major: 5, minor: 1 };
  const archive = cpioNewcArchive([...(await directoryCpioEntries(root)), console]);
  await writeFile(initrd, await gzipAsync(archive, { level: 6 }));
}

/** Builds the guest into `outputDir` (which must not exist yet or be empty); `workDir` is scratch space. */
export async function buildGuest(
  recipe: GuestRecipe,
  outputDir: string,
  workDir: string,
  log: BuildLog,
): Promise<BuiltGuestFiles> {
  const started = Date.now();
  await mkdir(outputDir, { recursive: true });
  const kernelDir = join(workDir, "kernel");
  const busyboxDir = join(workDir, "busybox");
  const tree = join(workDir, "tree");
  const sshDirs = new Map(recipe.sshPackages.map((deb) => [deb.name, join(workDir, "ssh", deb.name)]));
  const [{ kernelVersion, vmlinuz }] = await Promise.all([
    unpackKernel(recipe.kernelPackage.path, kernelDir),
    unpackDeb(recipe.busyboxPackage.path, busyboxDir),
    ...recipe.sshPackages.map((deb) => unpackDeb(deb.path, sshDirs.get(deb.name) ?? "")),
  ]);
  log.info({ kernelVersion, ms: Date.now() - started }, "unpacked the kernel, busybox and ssh packages");
  const modules = await resolveModuleLoadOrder(join(kernelDir, "lib/modules", kernelVersion), recipe.modules);
  await assembleRootTree(tree, join(busyboxDir, "bin/busybox"));
  await installSshServer(tree, sshDirs);
  await installGuestAgent(tree, sshDirs);

  const raw = join(workDir, "disk.raw");
  const files: BuiltGuestFiles = {
    kernel: join(outputDir, "vmlinuz"),
    initrd: join(outputDir, "initramfs.gz"),
    disk: join(outputDir, "disk.qcow2"),
    kernelVersion,
    modules: modules.map((module) => module.name),
  };
  await createExt4Image({
    sourceDir: tree,
    path: raw,
    sizeMiB: recipe.diskSizeMiB,
    label: TEST_GUEST_ROOT_LABEL,
  });
  await convertRawToQcow2(raw, files.disk);
  await removeGuestAgent(tree);
  await removeSshServer(tree);
  await writeInitramfs(tree, modules, recipe, files.initrd);
  await copyFile(vmlinuz, files.kernel);
  await rm(workDir, { recursive: true, force: true });
  log.info({ ms: Date.now() - started, modules: files.modules.length }, "built the test guest");
  return files;
}
