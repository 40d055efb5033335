// Publishes the Debian cloud guest to a registry as a containerDisk (its disk alone under /disk/, as
// quay.io/containerdisks/debian holds one): localhost:5000/kubevirt-ts/debian:12 on the dev cluster,
// what examples/vm-debian.yaml names. The layer (hundreds of MiB, zstd) is made once per build and kept
// beside it, so a second `npm start` only finds its blobs in the registry already.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { buildImage, type Layer, layerFromEntries, type PushedImage, pushImage } from "../oci-image/index.js";
import type { CloudGuest } from "./ensure-cloud-guest.js";

export const CLOUD_GUEST_REPOSITORY = "kubevirt-ts/debian";
export const CLOUD_GUEST_TAG = "12";

const QEMU_ID = 107;

interface CachedLayer {
  readonly digest: string;
  readonly size: number;
  readonly diffId: string;
  readonly guestDigest: string;
}

/** The guest's containerDisk layer, made once for this build of the guest. */
async function containerDiskLayer(guest: CloudGuest): Promise<Layer> {
  const dir = join(dirname(guest.disk), "containerdisk-layer");
  const record = join(dir, "layer.json");
  const blob = join(dir, "layer.tar.zst");
  const cached = await readFile(record, "utf8").then(
    (text) => JSON.parse(text) as CachedLayer,
    () => undefined,
  );
  if (cached?.guestDigest === guest.digest) {
    return {
      digest: cached.digest,
      size: cached.size,
      diffId: cached.diffId,
      compression: "zstd",
      content: { path: blob },
    };
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const owned = { uid: QEMU_ID, gid: QEMU_ID };
  const layer = await layerFromEntries(
    [
      { path: "disk/", type: "dir", ...owned },
      { path: "disk/debian-12.qcow2", type: "file", content: guest.disk, ...owned },
    ],
    { compression: "zstd", blobDir: dir },
  );
  if (Buffer.isBuffer(layer.content)) throw new Error("the layer was kept in memory, not in its file");
  await rename(layer.content.path, blob);
  const kept: CachedLayer = {
    digest: layer.digest,
    size: layer.size,
    diffId: layer.diffId,
    guestDigest: guest.digest,
  };
  await writeFile(record, `${JSON.stringify(kept)}\n`);
  return { ...layer, content: { path: blob } };
}

export async function publishCloudGuest(
  guest: CloudGuest,
  options: { registry: string; repository?: string; tag?: string },
): Promise<PushedImage> {
  return pushImage({
    registry: options.registry,
    repository: options.repository ?? CLOUD_GUEST_REPOSITORY,
    tag: options.tag ?? CLOUD_GUEST_TAG,
    image: buildImage({ layers: [await containerDiskLayer(guest)] }),
  });
}
