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
 * The stand-ins for KubeVirt's demo images, pushed under their own repositories so that a node
 * whose mirrors send quay.io and registry:5000 to this registry boots KubeVirt's examples as they
 * are written: examples/vm-cirros.yaml names quay.io/kubevirt/cirros-container-disk-demo,
 * examples/vm-alpine-datavolume.yaml imports docker://registry:5000/kubevirt/alpine-container-disk-demo:devel.
 * Both are the test guest on a disk that boots by itself (not cirros, not Alpine): banner, NoCloud
 * user-data on the serial console, a shell, in 128Mi.
 */
export const CIRROS_STAND_IN_REPOSITORY = "kubevirt/cirros-container-disk-demo";
export const ALPINE_STAND_IN_REPOSITORY = "kubevirt/alpine-container-disk-demo";
/** KubeVirt publishes `latest` and `devel` (its CI's tag; the examples name it) of both. */
const DEMO_STAND_INS: readonly { repository: string; tags: readonly string[] }[] = [
  { repository: CIRROS_STAND_IN_REPOSITORY, tags: ["latest", "devel"] },
  { repository: ALPINE_STAND_IN_REPOSITORY, tags: ["latest", "devel"] },
];

/** Builds the bootable disk once and pushes it as every demo stand-in; returns what was pushed. */
export async function publishDemoStandIns(
  guest: TestGuestFiles,
  options: { registry: string },
): Promise<PushedImage[]> {
  const work = await mkdtemp(join(tmpdir(), "kubevirt-ts-demo-"));
  try {
    const disk = join(work, "disk.img");
    await buildBootableDisk(guest, disk);
    const image = await containerDiskImage({ disk, fileName: "disk.img", blobDir: work });
    const pushed: PushedImage[] = [];
    for (const { repository, tags } of DEMO_STAND_INS) {
      for (const tag of tags)
        pushed.push(await pushImage({ registry: options.registry, repository, tag, image }));
    }
    return pushed;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
