// The guest's QEMU guest agent: qemu-ga from Debian's qemu-guest-agent with the shared libraries it
// needs, taken file by file from their packages as ssh-server.ts does for dropbear (root disk only).
// rcS starts it on the virtio-serial port libvirt names org.qemu.guest_agent.0.
import { copyFile, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The files each package contributes; libc6's (libc, the ELF interpreter) come with the SSH server. */
export const GUEST_AGENT_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  "qemu-guest-agent": ["usr/sbin/qemu-ga"],
  // qemu-ga's NEEDED entries and theirs: glib (and gmodule), numa, udev, uring, glib's pcre2, libm.
  "libglib2.0-0": [
    "usr/lib/x86_64-linux-gnu/libglib-2.0.so.0",
    "usr/lib/x86_64-linux-gnu/libgmodule-2.0.so.0",
  ],
  libnuma1: ["usr/lib/x86_64-linux-gnu/libnuma.so.1"],
  libudev1: ["usr/lib/x86_64-linux-gnu/libudev.so.1"],
  liburing2: ["usr/lib/x86_64-linux-gnu/liburing.so.2"],
  "libpcre2-8-0": ["usr/lib/x86_64-linux-gnu/libpcre2-8.so.0"],
  libc6: ["lib/x86_64-linux-gnu/libm.so.6"],
};

/** Copies the agent's files from the unpacked packages (`unpacked` by package name) into the guest tree. */
export async function installGuestAgent(tree: string, unpacked: ReadonlyMap<string, string>): Promise<void> {
  for (const [packageName, paths] of Object.entries(GUEST_AGENT_PACKAGES)) {
    const dir = unpacked.get(packageName);
    if (dir === undefined) throw new Error(`the guest agent needs the Debian package ${packageName}`);
    for (const path of paths) {
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await copyFile(join(dir, path), join(tree, path));
    }
  }
}

/** Takes the agent out of the tree again, before the initramfs is archived from it. */
export async function removeGuestAgent(tree: string): Promise<void> {
  for (const paths of Object.values(GUEST_AGENT_PACKAGES)) {
    for (const path of paths) await rm(join(tree, path), { force: true });
  }
}
