// The images KubeVirt users build: a containerDisk (`FROM scratch` + `ADD --chown=107:107 x.qcow2
// /disk/`) and a kernel-boot image with /boot/vmlinuz and /boot/initrd.img. One layer each; the
// files are streamed from disk, so with `blobDir` a big disk is never held in memory.
import { basename } from "node:path";
import { layerFromEntries } from "./layer.js";
import type { LayerCompression, ManifestFormat } from "./media-types.js";
import { buildImage, type ImageManifest, type Platform } from "./oci-image.js";
import type { TarEntry } from "./tar-writer.js";

const QEMU_ID = 107;

interface SingleLayerImageOptions {
  /** Manifest format; default "oci". */
  readonly format?: ManifestFormat;
  /** Default "gzip", what `docker build` writes. */
  readonly compression?: LayerCompression;
  /** Write the layer to a file here instead of memory (recommended for disks of hundreds of MiB). */
  readonly blobDir?: string;
  /** Default linux/amd64. */
  readonly platform?: Platform;
}

export interface ContainerDiskImageOptions extends SingleLayerImageOptions {
  /** The qcow2 or raw file to put in /disk. */
  readonly disk: string;
  /** Name inside /disk; default the disk's basename. */
  readonly fileName?: string;
}

export async function containerDiskImage(options: ContainerDiskImageOptions): Promise<ImageManifest> {
  const name = options.fileName ?? basename(options.disk);
  return singleLayerImage(
    [directory("disk/"), { path: `disk/${name}`, type: "file", content: options.disk, mode: 0o644 }],
    options,
  );
}

export interface KernelBootImageOptions extends SingleLayerImageOptions {
  /** Becomes /boot/vmlinuz. */
  readonly kernel?: string;
  /** Becomes /boot/initrd.img. */
  readonly initrd?: string;
}

export async function kernelBootImage(options: KernelBootImageOptions): Promise<ImageManifest> {
  const entries: TarEntry[] = [directory("boot/")];
  if (options.kernel) entries.push(file("boot/vmlinuz", options.kernel));
  if (options.initrd) entries.push(file("boot/initrd.img", options.initrd));
  return singleLayerImage(entries, options);
}

async function singleLayerImage(entries: TarEntry[], options: SingleLayerImageOptions) {
  const layer = await layerFromEntries(entries, {
    compression: options.compression ?? "gzip",
    ...(options.blobDir ? { blobDir: options.blobDir } : {}),
  });
  return buildImage({
    layers: [layer],
    ...(options.format ? { format: options.format } : {}),
    ...(options.platform ? { platform: options.platform } : {}),
  });
}

function directory(path: string): TarEntry {
  return { path, type: "dir", mode: 0o755, uid: QEMU_ID, gid: QEMU_ID };
}

function file(path: string, content: string): TarEntry {
  return { path, type: "file", content, mode: 0o644, uid: QEMU_ID, gid: QEMU_ID };
}
