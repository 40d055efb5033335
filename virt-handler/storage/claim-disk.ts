// A persistentVolumeClaim (or DataVolume) volume's disk: the file `disk.img` at the root of the claim's
// volume, raw, as KubeVirt keeps it. The volume is the launcher pod's, found where the kubelet mounted it
// on this node (vmi/launcher-pod-volumes.ts); its content is the user's (an importer, a guest, any pod
// that mounts the claim), so nothing in it is trusted: the file is opened here, without following a
// link, checked to be a regular file, and QEMU gets that open file (a libvirt fd group), never the path.
// A file swapped in later cannot reach QEMU, and the disk is always raw, so no header it holds is read.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, link, open, rm, statfs } from "node:fs/promises";
import { join } from "node:path";
import { VmiConversionError } from "../converter/conversion-error.js";

/** What the launcher pod's volume of a claim is, on this node. */
export interface ClaimVolume {
  /** The volume's directory as the kubelet mounted it (resolved: no link left in it). */
  readonly dir: string;
  /** The claim's `spec.resources.requests.storage`, in bytes. */
  readonly requestBytes: number | undefined;
  /** The claim's `status.capacity.storage`, in bytes. */
  readonly capacityBytes: number | undefined;
}

export interface ClaimDiskOptions {
  readonly volumeName: string;
  readonly claimName: string;
  readonly readOnly: boolean;
  /** The share of a Filesystem volume kept for the file system (CDI's `filesystemOverhead`). */
  readonly filesystemOverhead: number;
}

/** The claim's disk, open for QEMU; the caller closes `file` once libvirt has its own copy. */
export interface OpenClaimDisk {
  readonly path: string;
  readonly file: FileHandle;
  readonly sizeBytes: number;
}

export const DISK_IMAGE_NAME = "disk.img";
const MIB = 1024 * 1024;
/** KubeVirt's defaults: bytes kept free on the volume, and how much smaller than asked a disk may be. */
const MINIMUM_RESERVE_BYTES = 131072;
const TOLERATED_SHORTFALL_PERCENT = 10;

/**
 * The disk's size when virt-handler makes it: the smaller of the claim's request and capacity, less the
 * file system's share, aligned down to 1 MiB (KubeVirt's rule).
 */
export function claimDiskSize(volume: ClaimVolume, options: ClaimDiskOptions): number {
  const known = [volume.requestBytes, volume.capacityBytes].filter(
    (bytes): bytes is number => bytes !== undefined && bytes > 0,
  );
  if (known.length === 0) {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${options.volumeName}: unable to determine capacity of claim ${options.claimName}, which provides no storage capacity or requests`,
    );
  }
  const usable = Math.min(...known) * (1 - options.filesystemOverhead);
  const size = Math.floor(usable / MIB) * MIB;
  if (size < MIB) {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${options.volumeName}: the size for volume ${options.volumeName} is too low, must be at least 1MiB`,
    );
  }
  return size;
}

/** Opens the claim's disk, first making it (sparse) when the volume has none. */
export async function openClaimDisk(volume: ClaimVolume, options: ClaimDiskOptions): Promise<OpenClaimDisk> {
  const path = join(volume.dir, DISK_IMAGE_NAME);
  let file = await openExisting(path, options);
  if (file === undefined) {
    await createDisk(volume, options);
    file = await openExisting(path, options);
    if (file === undefined) throw new Error(`${path} vanished right after it was made`);
  }
  try {
    const stat = await file.stat();
    if (!stat.isFile()) {
      throw new VmiConversionError(
        "InvalidSpec",
        `volume ${options.volumeName}: ${DISK_IMAGE_NAME} of claim ${options.claimName} is not a regular file: refused`,
      );
    }
    return { path, file, sizeBytes: stat.size };
  } catch (error) {
    await file.close();
    throw error;
  }
}

async function openExisting(path: string, options: ClaimDiskOptions): Promise<FileHandle | undefined> {
  // O_NOFOLLOW: a link named disk.img (to a node file) is refused, not followed. O_NONBLOCK: a FIFO
  // cannot hang the open.
  const access = options.readOnly ? constants.O_RDONLY : constants.O_RDWR;
  try {
    return await open(path, access | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "EISDIR") {
      throw new VmiConversionError(
        "InvalidSpec",
        `volume ${options.volumeName}: ${DISK_IMAGE_NAME} of claim ${options.claimName} is not a regular file: refused`,
        { cause: error },
      );
    }
    if (code === "ELOOP") {
      throw new VmiConversionError(
        "InvalidSpec",
        `volume ${options.volumeName}: ${DISK_IMAGE_NAME} of claim ${options.claimName} is a symbolic link: refused`,
        { cause: error },
      );
    }
    throw new VmiConversionError(
      "VolumePreparationFailed",
      `volume ${options.volumeName}: cannot open ${DISK_IMAGE_NAME} of claim ${options.claimName}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * A sparse raw disk, made under a temporary name and linked into place: a crash never leaves a short
 * disk.img, and one that appeared meanwhile is kept (link does not replace).
 */
async function createDisk(volume: ClaimVolume, options: ClaimDiskOptions): Promise<void> {
  if (options.readOnly) {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${options.volumeName}: claim ${options.claimName} is read-only and has no ${DISK_IMAGE_NAME}`,
    );
  }
  const size = await fittingSize(volume, claimDiskSize(volume, options), options);
  const temporary = join(volume.dir, `.${DISK_IMAGE_NAME}.tmp-${randomBytes(4).toString("hex")}`);
  try {
    const handle = await open(
      temporary,
      constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o660,
    );
    try {
      await handle.truncate(size);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await link(temporary, join(volume.dir, DISK_IMAGE_NAME)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(temporary, { force: true });
  }
}

/** The size to make, within what the volume has free (KubeVirt's reserve and 10 % tolerance). */
async function fittingSize(volume: ClaimVolume, wanted: number, options: ClaimDiskOptions): Promise<number> {
  const fs = await statfs(volume.dir);
  const available = Math.max(0, fs.bavail * fs.bsize - MINIMUM_RESERVE_BYTES);
  if (wanted <= available) return wanted;
  if (wanted * (1 - TOLERATED_SHORTFALL_PERCENT / 100) <= available) {
    return Math.floor(available / MIB) * MIB;
  }
  throw new VmiConversionError(
    "VolumePreparationFailed",
    `volume ${options.volumeName}: unable to create ${DISK_IMAGE_NAME} on claim ${options.claimName}, not enough space, demanded size ${wanted} B is bigger than available space ${available} B, also after taking ${TOLERATED_SHORTFALL_PERCENT} % toleration into account`,
  );
}
