// The guest's SSH server: dropbear from Debian's dropbear-bin (and OpenSSH's scp for copies) with the shared libraries it needs, taken
// file by file from their packages (no package is installed, no dpkg database is made). They go on the
// root disk only: the initramfs stays as small as it was, and a guest booted without its disk has no
// SSH. Host keys are made by dropbear itself at the first connection (-R), so each VM has its own.
import { copyFile, mkdir, rm, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { DebianPackageFile } from "./debian-packages.js";

/** The files each package contributes (paths in the package; symlinks are copied as what they name). */
export const SSH_SERVER_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  "dropbear-bin": ["usr/sbin/dropbear"],
  // The remote end of `scp -O` (the classic protocol, the only one dropbear serves): links libc only.
  "openssh-client": ["usr/bin/scp"],
  // dropbear's NEEDED entries and theirs: libtomcrypt, libtommath, libz, libcrypt, libc; libtomcrypt's libgmp.
  libc6: ["lib/x86_64-linux-gnu/libc.so.6", "lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"],
  libcrypt1: ["lib/x86_64-linux-gnu/libcrypt.so.1"],
  zlib1g: ["lib/x86_64-linux-gnu/libz.so.1"],
  libtomcrypt1: ["usr/lib/x86_64-linux-gnu/libtomcrypt.so.1"],
  libtommath1: ["usr/lib/x86_64-linux-gnu/libtommath.so.1"],
  libgmp10: ["usr/lib/x86_64-linux-gnu/libgmp.so.10"],
};

/** Where the ELF interpreter of x86-64 binaries is looked for. */
const INTERPRETER_LINK = "lib64/ld-linux-x86-64.so.2";

/** Copies the server's files from the unpacked packages (`unpacked` by package name) into the guest tree. */
export async function installSshServer(tree: string, unpacked: ReadonlyMap<string, string>): Promise<void> {
  for (const [packageName, paths] of Object.entries(SSH_SERVER_PACKAGES)) {
    const dir = unpacked.get(packageName);
    if (dir === undefined) throw new Error(`the SSH server needs the Debian package ${packageName}`);
    for (const path of paths) {
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await copyFile(join(dir, path), join(tree, path));
    }
  }
  await mkdir(join(tree, dirname(INTERPRETER_LINK)), { recursive: true });
  await symlink("/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", join(tree, INTERPRETER_LINK));
  await mkdir(join(tree, "etc/dropbear"), { recursive: true });
}

/** Takes the server out of the tree again, before the initramfs is archived from it. */
export async function removeSshServer(tree: string): Promise<void> {
  for (const paths of Object.values(SSH_SERVER_PACKAGES)) {
    for (const path of paths) await rm(join(tree, path), { force: true });
  }
  await rm(join(tree, INTERPRETER_LINK), { force: true });
  await rm(join(tree, "usr"), { recursive: true, force: true });
  await rm(join(tree, "lib64"), { recursive: true, force: true });
  await rm(join(tree, "lib/x86_64-linux-gnu"), { recursive: true, force: true });
  await rm(join(tree, "etc/dropbear"), { recursive: true, force: true });
}

/** The recipe's view: the downloaded packages, in the order of SSH_SERVER_PACKAGES. */
export type SshServerPackages = readonly DebianPackageFile[];
