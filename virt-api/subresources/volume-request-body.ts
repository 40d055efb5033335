/**
 * The bodies of addvolume and removevolume (KubeVirt's AddVolumeOptions and RemoveVolumeOptions),
 * with KubeVirt's 400s for what is missing, and made ready to store: the disk takes the volume's
 * name, the source is marked `hotpluggable: true` (virt-api's part in KubeVirt too), and a disk
 * that names no target becomes a SCSI disk, the bus every domain can take a disk on while running.
 */
import {
  type AddVolumeOptions,
  addVolumeOptionsValidator,
  type Cause,
  type RemoveVolumeOptions,
  removeVolumeOptionsValidator,
} from "../../api/index.js";
import { badRequest } from "../status/status-error.js";
import { dryRunOf, fieldsOf, type Query } from "./request-options.js";

export interface VolumeRequestBody<Options> {
  /** What is stored (without dryRun: a dry run stores nothing). */
  readonly options: Options;
  readonly dryRun: boolean;
}

/** A disk's bus when it names none, and the buses a hotplugged disk or LUN may use. */
const DEFAULT_HOTPLUG_BUS = "scsi";
const DISK_BUSES = ["scsi", "virtio"];
const LUN_BUSES = ["scsi"];
/**
 * What virt-handler gives a hotplugged disk besides its bus: its serial, cache mode and read-only
 * flag. Anything else a Disk may say would be accepted and then not done, so it is refused.
 */
const HOTPLUG_DISK_FIELDS = new Set(["name", "disk", "serial", "cache"]);
const HOTPLUG_TARGET_FIELDS = new Set(["bus", "readonly"]);

export function addVolumeBodyOf(body: unknown, query: Query): VolumeRequestBody<AddVolumeOptions> {
  const type = "AddVolumeOptions";
  const fields = fieldsOf(body, type);
  const name = fields.name;
  if (typeof name !== "string" || name === "") throw badRequest(`${type} requires name to be set`);
  if (fields.disk === undefined || fields.disk === null)
    throw badRequest(`${type} requires disk to not be nil`);
  if (fields.volumeSource === undefined || fields.volumeSource === null) {
    throw badRequest(`${type} requires VolumeSource to not be nil`);
  }
  const dryRun = dryRunOf(fields, query, type);
  // KubeVirt names the disk after the volume whatever the body says (virtctl sends no name).
  const candidate = {
    name,
    disk: isObject(fields.disk) ? { ...fields.disk, name } : fields.disk,
    volumeSource: fields.volumeSource,
  };
  if (!addVolumeOptionsValidator.check(candidate)) {
    throw badRequest(`unable to decode ${type}: ${describe(addVolumeOptionsValidator.validate(candidate))}`);
  }
  return { options: readyToStore(candidate), dryRun };
}

export function removeVolumeBodyOf(body: unknown, query: Query): VolumeRequestBody<RemoveVolumeOptions> {
  const type = "RemoveVolumeOptions";
  const fields = fieldsOf(body, type);
  if (typeof fields.name !== "string" || fields.name === "") {
    throw badRequest(`${type} requires name to be set`);
  }
  const dryRun = dryRunOf(fields, query, type);
  const candidate = { name: fields.name };
  if (!removeVolumeOptionsValidator.check(candidate)) {
    throw badRequest(
      `unable to decode ${type}: ${describe(removeVolumeOptionsValidator.validate(candidate))}`,
    );
  }
  return { options: candidate, dryRun };
}

function readyToStore(options: AddVolumeOptions): AddVolumeOptions {
  const { persistentVolumeClaim, dataVolume } = options.volumeSource;
  if ((persistentVolumeClaim === undefined) === (dataVolume === undefined)) {
    throw badRequest(
      "AddVolumeOptions requires exactly one of volumeSource.persistentVolumeClaim and volumeSource.dataVolume",
    );
  }
  const volumeSource = persistentVolumeClaim
    ? { persistentVolumeClaim: { ...persistentVolumeClaim, hotpluggable: true } }
    : { dataVolume: { ...(dataVolume as { name: string }), hotpluggable: true } };
  return { name: options.name, disk: withHotplugTarget(options.disk), volumeSource };
}

function withHotplugTarget(disk: AddVolumeOptions["disk"]): AddVolumeOptions["disk"] {
  const targets = [disk.disk, disk.lun, disk.cdrom].filter((target) => target !== undefined).length;
  if (targets > 1) throw badRequest(`disk ${disk.name} must have at most one of disk, lun and cdrom`);
  if (disk.cdrom) {
    throw badRequest(`disk ${disk.name}: a hotplugged volume is a disk or a lun, not a cdrom`);
  }
  if (disk.lun) {
    const bus = disk.lun.bus ?? DEFAULT_HOTPLUG_BUS;
    if (!LUN_BUSES.includes(bus)) {
      throw badRequest(`Invalid bus type '${bus}' for LUN disk. Only 'scsi' bus is supported.`);
    }
    // A LUN passes SCSI commands to a block device; kubevirt-ts has no block volumes yet, and a
    // LUN attached as a plain disk would be a silent substitute.
    throw badRequest(
      `disk ${disk.name}: a lun needs a block volume, which kubevirt-ts does not support yet; hotplug it as a disk (--disk-type disk)`,
    );
  }
  const unsupported = [
    ...Object.keys(disk).filter((field) => !HOTPLUG_DISK_FIELDS.has(field)),
    ...Object.keys(disk.disk ?? {})
      .filter((field) => !HOTPLUG_TARGET_FIELDS.has(field))
      .map((field) => `disk.${field}`),
  ];
  if (unsupported.length > 0) {
    throw badRequest(`disk ${disk.name}: ${unsupported.join(", ")} not supported yet for a hotplugged disk`);
  }
  const bus = disk.disk?.bus ?? DEFAULT_HOTPLUG_BUS;
  if (!DISK_BUSES.includes(bus)) {
    throw badRequest(`Invalid bus type '${bus}' for disk. Only 'scsi' and 'virtio' are supported.`);
  }
  if (bus === "virtio") {
    // A virtio disk is a PCI device of its own, and the domain keeps no spare PCIe root port to
    // plug it into (KubeVirt reserves some); the SCSI controller every domain has takes any number.
    throw badRequest(
      `disk ${disk.name}: kubevirt-ts hotplugs disks on the scsi bus only (no spare PCIe port for a virtio disk); use --bus scsi`,
    );
  }
  return { ...disk, disk: { ...disk.disk, bus } };
}

function describe(causes: readonly Cause[]): string {
  return causes.map((cause) => `${cause.field}: ${cause.message}`).join("; ");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
