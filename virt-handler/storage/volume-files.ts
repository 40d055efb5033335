// One function per supported volume kind: each makes the VM's files for the volume in the VM directory
// and says where the domain finds its disk. Kinds that need what virt-handler cannot provide yet are
// refused with the reason.
import { type FileHandle, mkdir, rm } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import {
  CDI_FILESYSTEM_OVERHEAD,
  type CloudInitKeyPropagation,
  Quantity,
  type Volume,
} from "../../api/index.js";
import { type ContainerDiskSource, canonicalPathInImage, openImageFile } from "../container-disk/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { openClaimDisk } from "./claim-disk.js";
import {
  type CloudInitIdentity,
  CONFIG_DRIVE_LABEL,
  configDriveFiles,
  NOCLOUD_LABEL,
  noCloudFiles,
} from "./cloud-init.js";
import { type LauncherPodVolumes, withSecretData } from "./cloud-init-secrets.js";
import {
  createEmptyQcow2,
  createQcow2Overlay,
  createSparseRawFile,
  type DiskFormat,
  fileExists,
} from "./disk-files.js";
import { checkedDiskFormat } from "./disk-format.js";
import { createIsoImage } from "./iso-image.js";
import { pinImageFile } from "./pin-image-file.js";

/** A volume ready to be attached: the file, its format, and what it naturally is (an ISO is a cdrom). */
export interface PreparedDisk {
  volumeName: string;
  path: string;
  format: "qcow2" | "raw";
  readOnly: boolean;
  device: "disk" | "cdrom";
  /**
   * A disk QEMU must get as this open file (a claim's disk.img, whose directory is the user's), under
   * this libvirt fd group name; whoever starts the domain closes the file afterwards.
   */
  opened?: { readonly fdGroup: string; readonly file: FileHandle };
}

export interface VolumeContext {
  vmDir: string;
  images: ContainerDiskSource;
  identity: CloudInitIdentity;
  /** The launcher pod's volumes: where Secrets the VMI references are read from. */
  podVolumes?: LauncherPodVolumes | undefined;
  /** The SSH public keys of spec.accessCredentials, by the data source that carries them. */
  publicKeys?: Readonly<Record<CloudInitKeyPropagation, readonly string[]>> | undefined;
  /** The `.dockerconfigjson` of each of the launcher pod's image pull secrets. */
  dockerConfigJsons?: readonly string[] | undefined;
}

/** Volume sources virt-handler cannot serve yet, and why. */
const UNSUPPORTED_SOURCES: Partial<Record<keyof Volume, string>> = {
  ephemeral: "ephemeral volumes are not supported yet (they are backed by a PVC)",
  configMap: "configMap volumes are not supported yet (virt-handler does not read ConfigMaps)",
  secret: "secret volumes are not supported yet (virt-handler does not read Secrets)",
  serviceAccount: "serviceAccount volumes are not supported yet",
  downwardAPI: "downwardAPI volumes are not supported yet",
  downwardMetrics: "downwardMetrics volumes are not supported yet",
  sysprep: "sysprep volumes are not supported yet",
  memoryDump: "memoryDump volumes are not supported yet",
};

export function bytesOf(volumeName: string, field: string, value: string | number | undefined): number {
  const quantity = value === undefined ? undefined : Quantity.tryParse(value);
  if (quantity === undefined || quantity.sign() <= 0) {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${volumeName}: ${field} must be a positive quantity, got ${String(value)}`,
    );
  }
  return quantity.value();
}

export async function prepareVolume(volume: Volume, context: VolumeContext): Promise<PreparedDisk> {
  const name = volume.name;
  if (volume.containerDisk) return prepareContainerDisk(name, volume.containerDisk, context);
  if (volume.emptyDisk) return prepareEmptyDisk(name, volume.emptyDisk.capacity, context);
  if (volume.hostDisk) return prepareHostDisk(name, volume.hostDisk);
  if (volume.persistentVolumeClaim) {
    const { claimName, readOnly } = volume.persistentVolumeClaim;
    return prepareClaimDisk(name, claimName, readOnly === true, context);
  }
  if (volume.dataVolume) return prepareClaimDisk(name, volume.dataVolume.name, false, context);
  if (volume.cloudInitNoCloud) {
    const data = await withSecretData(name, volume.cloudInitNoCloud, context.podVolumes);
    const files = noCloudFiles(name, data, context.identity, context.publicKeys?.noCloud);
    return prepareIso(name, NOCLOUD_LABEL, files, context);
  }
  if (volume.cloudInitConfigDrive) {
    const data = await withSecretData(name, volume.cloudInitConfigDrive, context.podVolumes);
    const files = configDriveFiles(name, data, context.identity, context.publicKeys?.configDrive);
    return prepareIso(name, CONFIG_DRIVE_LABEL, files, context);
  }
  for (const [source, why] of Object.entries(UNSUPPORTED_SOURCES)) {
    if (volume[source as keyof Volume] !== undefined) {
      throw new VmiConversionError("UnsupportedVolume", `volume ${name}: ${why}`);
    }
  }
  throw new VmiConversionError("InvalidSpec", `volume ${name} has no source`);
}

/**
 * A containerDisk: the image's disk (or the file `path` names), checked to be a regular file inside the
 * image, pinned in the VM directory, checked to name no other file, then given a qcow2 overlay. The
 * checks are made on the pinned file because that is what qemu-img and QEMU open.
 */
async function prepareContainerDisk(
  name: string,
  source: NonNullable<Volume["containerDisk"]>,
  context: VolumeContext,
): Promise<PreparedDisk> {
  const image = await context.images.resolve(source.image, {
    ...(source.imagePullPolicy ? { pullPolicy: source.imagePullPolicy } : {}),
    ...(source.path !== undefined ? { path: source.path } : {}),
    dockerConfigJsons: context.dockerConfigJsons ?? [],
  });
  const pathInImage =
    source.path === undefined ? image.disk : canonicalPathInImage(source.image, source.path);
  if (pathInImage === undefined) {
    throw new VmiConversionError("InvalidImage", `volume ${name}: ${source.image} has no disk (set path)`);
  }
  // The manifest's format belongs to the manifest's disk only; another file's format is read from it.
  const declared = pathInImage === image.disk ? image.diskFormat : undefined;
  const { path: pinned } = await pinImageFile(join(context.vmDir, `${name}.base`), () =>
    openImageFile({ image: source.image, root: image.root, pathInImage, what: "disk" }),
  );
  let format: DiskFormat;
  try {
    format = await checkedDiskFormat({ image: source.image, pathInImage, path: pinned, declared });
  } catch (error) {
    await rm(pinned, { force: true }); // a refused disk leaves nothing in the VM directory
    throw error;
  }
  const overlay = join(context.vmDir, `${name}.qcow2`);
  await createQcow2Overlay(pinned, format, overlay);
  return { volumeName: name, path: overlay, format: "qcow2", readOnly: false, device: "disk" };
}

async function prepareEmptyDisk(
  name: string,
  capacity: string | number,
  context: VolumeContext,
): Promise<PreparedDisk> {
  const path = join(context.vmDir, `${name}.qcow2`);
  await createEmptyQcow2(path, bytesOf(name, "emptyDisk.capacity", capacity));
  return { volumeName: name, path, format: "qcow2", readOnly: false, device: "disk" };
}

async function prepareHostDisk(name: string, source: NonNullable<Volume["hostDisk"]>): Promise<PreparedDisk> {
  const { path, type } = source;
  if (!isAbsolute(path))
    throw new VmiConversionError("InvalidSpec", `volume ${name}: hostDisk.path must be absolute`);
  const prepared: PreparedDisk = { volumeName: name, path, format: "raw", readOnly: false, device: "disk" };
  if (type === "Disk") {
    if (!(await fileExists(path))) {
      throw new VmiConversionError(
        "InvalidSpec",
        `volume ${name}: hostDisk ${path} does not exist (type Disk)`,
      );
    }
    return prepared;
  }
  if (type !== "DiskOrCreate") {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${name}: hostDisk.type must be Disk or DiskOrCreate, got ${type}`,
    );
  }
  if (!(await fileExists(path))) {
    const size = bytesOf(name, "hostDisk.capacity", source.capacity);
    await mkdir(dirname(path), { recursive: true });
    await createSparseRawFile(path, size);
  }
  return prepared;
}

/** A claim's disk.img (a DataVolume's claim has the DataVolume's name), opened for QEMU. */
async function prepareClaimDisk(
  name: string,
  claimName: string,
  readOnly: boolean,
  context: VolumeContext,
): Promise<PreparedDisk> {
  if (context.podVolumes === undefined) {
    throw new VmiConversionError(
      "UnsupportedVolume",
      `volume ${name}: a claim's disk needs the launcher pod's volumes, which this virt-handler was not given`,
    );
  }
  const volume = await context.podVolumes.claimVolume(name, claimName);
  const options = { volumeName: name, claimName, readOnly, filesystemOverhead: CDI_FILESYSTEM_OVERHEAD };
  const disk = await openClaimDisk(volume, options);
  return {
    volumeName: name,
    path: disk.path,
    format: "raw",
    readOnly,
    device: "disk",
    opened: { fdGroup: `claim-${name}`, file: disk.file },
  };
}

async function prepareIso(
  name: string,
  label: string,
  files: Map<string, string>,
  context: VolumeContext,
): Promise<PreparedDisk> {
  const path = join(context.vmDir, `${name}.iso`);
  await createIsoImage({ label, files, path });
  return { volumeName: name, path, format: "raw", readOnly: true, device: "cdrom" };
}
