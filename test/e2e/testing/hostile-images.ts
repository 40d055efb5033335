// Images a tenant could bring, published into the node's local image store the way the test-guest
// builder publishes (a complete directory renamed into place): what a registry would hand the node
// for an image the tenant pushed. Each one tries to make a host file readable or writable by a guest.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

export type HostileImageKind =
  /** disk.qcow2 names the host file as its backing file (qemu would read it through the overlay). */
  | "qcow2-backing-file"
  /** disk.qcow2 keeps its data in the host file (an external data file). */
  | "qcow2-data-file"
  /** /disk/disk.qcow2 is a symlink to the host file. */
  | "symlinked-disk"
  /** /disk is a symlink to the host file's directory. */
  | "symlinked-directory";

export interface PublishedImage {
  /** localhost/NAME:latest, for the VMI. */
  readonly reference: string;
  remove(): Promise<void>;
}

export async function publishHostileImage(
  storeDir: string,
  name: string,
  kind: HostileImageKind,
  hostFile: string,
): Promise<PublishedImage> {
  const final = join(storeDir, `${name}:latest`);
  const staging = join(storeDir, `.staging-${randomBytes(4).toString("hex")}`);
  const diskDir = join(staging, "rootfs", "disk");
  await mkdir(join(staging, "rootfs"), { recursive: true });
  const disk = join(diskDir, "disk.qcow2");
  switch (kind) {
    case "qcow2-backing-file":
      await mkdir(diskDir);
      qemuImg(["create", "-q", "-f", "qcow2", "-F", "raw", "-b", hostFile, disk]);
      break;
    case "qcow2-data-file":
      await mkdir(diskDir);
      // data_file_raw: the host file's bytes are the guest's disk, read and written in place.
      // qemu-img zeroes the data file it is given: write the host file's content afterwards.
      qemuImg(["create", "-q", "-f", "qcow2", "-o", `data_file=${hostFile},data_file_raw=on`, disk, "1M"]);
      break;
    case "symlinked-disk":
      await mkdir(diskDir);
      await symlink(hostFile, disk);
      break;
    case "symlinked-directory":
      await symlink(join(hostFile, ".."), diskDir);
      break;
  }
  const diskPath =
    kind === "symlinked-directory" ? `/disk/${hostFile.split("/").pop() ?? ""}` : "/disk/disk.qcow2";
  const manifest = {
    schemaVersion: 1,
    reference: `localhost/${name}:latest`,
    digest: `sha256:${randomBytes(32).toString("hex")}`,
    created: new Date().toISOString(),
    disk: { path: diskPath, format: "qcow2" },
  };
  await writeFile(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await rm(final, { recursive: true, force: true });
  await rename(staging, final);
  return { reference: manifest.reference, remove: () => rm(final, { recursive: true, force: true }) };
}

function qemuImg(args: string[]): void {
  execFileSync("qemu-img", args, { stdio: ["ignore", "ignore", "pipe"] });
}
