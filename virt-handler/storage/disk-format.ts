// The format of a containerDisk's disk, by disk-image/ (our own qcow2 header reader, never qemu-img): a
// qcow2 is used only when it names no other file, anything else is raw and handed to QEMU as raw. What is
// virt-handler's here is the error a VMI shows: the library's refusal, said of the disk inside its image.
import { checkedDiskImageFormat, DiskImageError } from "../../disk-image/index.js";
import { ContainerDiskError, describePathInImage } from "../container-disk/index.js";
import type { DiskFormat } from "./disk-files.js";

export interface DiskFormatRequest {
  image: string;
  /** The disk's path inside the image, for messages. */
  pathInImage: string;
  /** The file to check: the one QEMU will open (the VM's pinned copy of the image's disk). */
  path: string;
  /** The format the image's manifest states, if it states one for this file. */
  declared?: DiskFormat;
}

/**
 * "qcow2" or "raw" for the disk at `path`; throws a ContainerDiskError (InvalidImage) for a qcow2 that names
 * a backing file or an external data file, a malformed qcow2, or a file whose content contradicts the
 * manifest's qcow2.
 */
export async function checkedDiskFormat(request: DiskFormatRequest): Promise<DiskFormat> {
  const { image, pathInImage, path, declared } = request;
  try {
    return await checkedDiskImageFormat({
      path,
      ...(declared === undefined ? {} : { declared }),
      reader: "virt-handler",
    });
  } catch (error) {
    if (!(error instanceof DiskImageError)) throw error;
    throw new ContainerDiskError(
      "InvalidImage",
      image,
      `${image}: the disk ${describePathInImage(pathInImage)} ${error.detail}`,
      { cause: error },
    );
  }
}
