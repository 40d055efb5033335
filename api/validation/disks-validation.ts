import { DISK_BUSES, DISK_CACHE_MODES, DISK_IO_MODES, type Disk } from "../vmi/disks.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, duplicate, invalid, notSupported } from "./cause.js";
import { duplicatePositions } from "./duplicates.js";
import { child, index } from "./field-path.js";

const SERIAL = /^[A-Za-z0-9_.+-]+$/;
const MAX_SERIAL_LENGTH = 256;
const PCI_ADDRESS = /^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$/;

/**
 * `spec.domain.devices.disks` (virt-api's validateDisks and the disk half of validateBootOrder):
 * unique names, every disk but a CD-ROM names a volume, at most one target, known buses, boot orders > 0,
 * serials, cache and IO modes.
 */
export function validateDisks(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const disksField = child(field, "domain", "devices", "disks");
  const disks = spec.domain.devices.disks ?? [];
  const volumeNames = new Set((spec.volumes ?? []).map((volume) => volume.name));
  const causes: Cause[] = [];
  for (const { at, first } of duplicatePositions(disks, (disk) => disk.name)) {
    causes.push(
      duplicate(
        child(index(disksField, at), "name"),
        `${index(disksField, at)} and ${index(disksField, first)} must not have the same Name.`,
      ),
    );
  }
  disks.forEach((disk, position) => {
    const diskField = index(disksField, position);
    // A CD-ROM without a volume is a drive with an empty tray (KubeVirt allows it with
    // DeclarativeHotplugVolumes; kubevirt-ts always does, since nothing else is needed for it).
    if (!volumeNames.has(disk.name) && disk.cdrom === undefined) {
      causes.push(invalid(child(diskField, "name"), `${child(diskField, "name")} '${disk.name}' not found.`));
    }
    causes.push(...validateDisk(diskField, disk, spec));
  });
  return causes;
}

function validateDisk(field: string, disk: Disk, spec: VirtualMachineInstanceSpec): Cause[] {
  const causes: Cause[] = [];
  const targets = (["disk", "lun", "cdrom"] as const).filter((target) => disk[target] !== undefined);
  if (targets.length > 1) causes.push(invalid(field, `${field} can only have a single target type defined`));
  const target = targets[0];
  const bus = target === undefined ? undefined : disk[target]?.bus;
  if (target !== undefined && bus !== undefined && bus !== "") {
    const busField = child(field, target, "bus");
    if (!DISK_BUSES.some((known) => known === bus)) {
      causes.push(
        invalid(
          busField,
          `${field} is set with an unrecognized bus ${bus}, must be one of: [${DISK_BUSES.join(" ")}]`,
        ),
      );
    }
    if (target === "cdrom" && bus === "virtio")
      causes.push(invalid(busField, `Bus type ${bus} is invalid for CD-ROM device`));
    if (target === "disk" && bus === "sata" && disk.disk?.readonly === true) {
      causes.push(invalid(busField, `${bus} hard-disks do not support read-only.`));
    }
  }
  const pciAddress = disk.disk?.pciAddress;
  if (pciAddress !== undefined && pciAddress !== "") {
    const pciField = child(field, "disk", "pciAddress");
    if (disk.disk?.bus !== "virtio")
      causes.push(
        invalid(pciField, `disk ${disk.name} - setting a PCI address is only possible with bus type virtio.`),
      );
    if (!PCI_ADDRESS.test(pciAddress))
      causes.push(invalid(pciField, `disk ${disk.name} has malformed PCI address (${pciAddress}).`));
  }
  if (disk.lun !== undefined && !isBlockVolume(spec, disk.name)) {
    causes.push(
      invalid(
        child(field, "lun"),
        `${child(field, "lun")} can only be mapped to a DataVolume or PersistentVolumeClaim volume.`,
      ),
    );
  }
  if (disk.bootOrder !== undefined && disk.bootOrder < 1) {
    causes.push(invalid(child(field, "bootOrder"), `${field} must have a boot order > 0, if supplied`));
  }
  causes.push(...validateSerial(field, disk.serial));
  if (
    disk.cache !== undefined &&
    disk.cache !== "" &&
    !DISK_CACHE_MODES.some((mode) => mode === disk.cache)
  ) {
    causes.push(notSupported(child(field, "cache"), disk.cache, DISK_CACHE_MODES));
  }
  if (disk.io !== undefined && disk.io !== "" && !DISK_IO_MODES.some((mode) => mode === disk.io)) {
    causes.push(notSupported(child(field, "io"), disk.io, DISK_IO_MODES));
  }
  if (disk.dedicatedIOThread === true && disk.disk?.bus === "sata") {
    causes.push({
      reason: "FieldValueNotSupported",
      message: "IOThreads are not supported for disks on a SATA bus",
      field,
    });
  }
  return causes;
}

/** A disk's serial (`field` is the disk): it becomes libvirt's `<serial>` and QEMU's `serial=` property. */
export function validateSerial(field: string, serial: string | undefined): Cause[] {
  if (serial === undefined || serial === "") return [];
  const serialField = child(field, "serial");
  const causes: Cause[] = [];
  if (!SERIAL.test(serial)) {
    causes.push(
      invalid(
        serialField,
        `${field} must be made up of the following characters [A-Za-z0-9_.+-], if specified`,
      ),
    );
  }
  if ([...serial].length > MAX_SERIAL_LENGTH) {
    causes.push(
      invalid(
        serialField,
        `${field} must be less than or equal to ${MAX_SERIAL_LENGTH} in length, if specified`,
      ),
    );
  }
  return causes;
}

function isBlockVolume(spec: VirtualMachineInstanceSpec, name: string): boolean {
  const volume = (spec.volumes ?? []).find((candidate) => candidate.name === name);
  return volume?.persistentVolumeClaim !== undefined || volume?.dataVolume !== undefined;
}
