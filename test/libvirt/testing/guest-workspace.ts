// A private directory per test guest: a qcow2 overlay of the shared root disk and, when asked, a cidata
// ISO. QEMU runs as root here (setup-host's qemu.conf), so any directory will do.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CidataContent, createCidataIso } from "../../guest/cidata-iso.js";
import { createQcow2Overlay } from "../../guest/disk-image.js";
import type { TestGuest } from "../../guest/ensure-test-guest.js";

export interface GuestWorkspace {
  readonly dir: string;
  readonly rootDisk: string;
  readonly cidataIso: string | undefined;
  /** Removes the directory and everything in it; safe to call twice. */
  remove(): Promise<void>;
}

export async function createGuestWorkspace(
  guest: TestGuest,
  cidata?: CidataContent,
): Promise<GuestWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), "libvirt-guest-"));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const rootDisk = join(dir, "root.qcow2");
    await createQcow2Overlay(guest.disk, rootDisk);
    let cidataIso: string | undefined;
    if (cidata !== undefined) {
      cidataIso = join(dir, "cidata.iso");
      await createCidataIso(cidata, cidataIso);
    }
    return { dir, rootDisk, cidataIso, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}
