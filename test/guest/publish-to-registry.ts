// Publishes the test guest to a registry as one image that is both its containerDisk (/disk/disk.qcow2)
// and its kernelBoot container (/boot/vmlinuz, /boot/initramfs.gz), as examples/vm-tiny.yaml uses it:
// the dev cluster's registry holds it as localhost:5000/kubevirt-ts/test-guest:latest.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildImage,
  containerDiskImage,
  type LayerCompression,
  layerFromEntries,
  type PushedImage,
  pushImage,
  type RegistryCredentials,
  type TarEntry,
} from "../oci-image/index.js";
import { buildBootableDisk } from "./bootable-disk.js";

/** The repository and tag the dev cluster's examples name (behind localhost:5000/). */
export const TEST_GUEST_REPOSITORY = "kubevirt-ts/test-guest";
export const TEST_GUEST_TAG = "latest";

export interface TestGuestFiles {
  readonly kernel: string;
  readonly initrd: string;
  readonly disk: string;
}

const QEMU_ID = 107;

/** The files of the test guest's image, at the paths examples/vm-tiny.yaml names. */
export function testGuestEntries(guest: TestGuestFiles): TarEntry[] {
  const owned = { uid: QEMU_ID, gid: QEMU_ID };
  return [
    { path: "boot/", type: "dir", ...owned },
    { path: "boot/vmlinuz", type: "file", content: guest.kernel, ...owned },
    { path: "boot/initramfs.gz", type: "file", content: guest.initrd, ...owned },
    { path: "disk/", type: "dir", ...owned },
    { path: "disk/disk.qcow2", type: "file", content: guest.disk, ...owned },
  ];
}

export interface PublishTestGuestOptions {
  readonly registry: string;
  readonly repository?: string;
  readonly tag?: string;
  /** Files added to the image (a nonce makes a new digest; padding makes a long pull). */
  readonly extraEntries?: readonly TarEntry[];
  readonly compression?: LayerCompression;
  /** Where a big layer is written instead of memory. */
  readonly blobDir?: string;
  readonly credentials?: RegistryCredentials;
}

export async function publishTestGuest(
  guest: TestGuestFiles,
  options: PublishTestGuestOptions,
): Promise<PushedImage & { layerBytes: number }> {
  const layer = await layerFromEntries([...(options.extraEntries ?? []), ...testGuestEntries(guest)], {
    compression: options.compression ?? "gzip",
    ...(options.blobDir ? { blobDir: options.blobDir } : {}),
  });
  const pushed = await pushImage({
    registry: options.registry,
    repository: options.repository ?? TEST_GUEST_REPOSITORY,
    tag: options.tag ?? TEST_GUEST_TAG,
    image: buildImage({ layers: [layer] }),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  return { ...pushed, layerBytes: layer.size };
}

/**
 * The stand-in for KubeVirt's demo image (its examples/vm-cirros.yaml names
 * quay.io/kubevirt/cirros-container-disk-demo): the test guest on a disk that boots by itself, in
 * the same repository, so a node whose mirrors send quay.io to this registry boots the example as
 * it is written.
 */
export const CIRROS_STAND_IN_REPOSITORY = "kubevirt/cirros-container-disk-demo";

export async function publishCirrosStandIn(
  guest: TestGuestFiles,
  options: { registry: string; tags?: readonly string[] },
): Promise<PushedImage[]> {
  const work = await mkdtemp(join(tmpdir(), "kubevirt-ts-cirros-"));
  try {
    const disk = join(work, "disk.img");
    await buildBootableDisk(guest, disk);
    const image = await containerDiskImage({ disk, fileName: "disk.img", blobDir: work });
    const pushed: PushedImage[] = [];
    for (const tag of options.tags ?? ["latest", "devel"]) {
      pushed.push(
        await pushImage({ registry: options.registry, repository: CIRROS_STAND_IN_REPOSITORY, tag, image }),
      );
    }
    return pushed;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
