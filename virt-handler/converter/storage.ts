// Storage: each disk of `domain.devices.disks` becomes a libvirt disk on its prepared volume, in the VMI's
// order, with target names per bus as KubeVirt assigns them (virtio vda, vdb, ...; sata, scsi and usb
// sda, sdb, ...). Device aliases "ua-<disk name>" let status and metrics map devices back to disks.
import { isHotpluggableVolume, type Disk as VmiDisk } from "../../api/index.js";
import type { Controller, Disk, DiskBus, DiskCache, DiskDriver } from "../../libvirt/domain-xml/index.js";
import type { PreparedDisk } from "../storage/prepare-volumes.js";
import { bootOrderOf } from "./boot-order.js";
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

type VmiBus = "virtio" | "sata" | "scsi" | "usb";

const PREFIX_OF_BUS: Record<VmiBus, string> = { virtio: "vd", sata: "sd", scsi: "sd", usb: "sd" };
const CACHE_MODES: readonly DiskCache[] = ["none", "writethrough", "writeback"];
const IO_MODES = ["native", "threads"] as const;
const ERROR_POLICIES: readonly NonNullable<DiskDriver["errorPolicy"]>[] = [
  "stop",
  "ignore",
  "report",
  "enospace",
];
const TRAY_STATES = ["open", "closed"] as const;

/** "vd" + 0 → "vda", 25 → "vdz", 26 → "vdaa" (the kernel's naming). */
export function targetDeviceName(prefix: string, index: number): string {
  let suffix = "";
  let n = index;
  do {
    suffix = String.fromCharCode(97 + (n % 26)) + suffix;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return prefix + suffix;
}

/** The bus and device kind a VMI disk asks for; KubeVirt's default bus is virtio, sata for a cdrom. */
function busAndDevice(disk: VmiDisk): { bus: VmiBus; device: "disk" | "cdrom" } {
  if (disk.lun !== undefined) {
    throw new VmiConversionError(
      "UnsupportedDevice",
      `disk ${disk.name}: lun disks need a block volume, not supported yet`,
    );
  }
  const device = disk.cdrom !== undefined ? "cdrom" : "disk";
  const bus = (disk.cdrom ?? disk.disk)?.bus || (device === "cdrom" ? "sata" : "virtio");
  if (bus !== "virtio" && bus !== "sata" && bus !== "scsi" && bus !== "usb") {
    throw new VmiConversionError(
      "InvalidSpec",
      `disk ${disk.name}: unknown bus ${bus} (virtio, sata, scsi, usb)`,
    );
  }
  if (device === "cdrom" && bus === "virtio") {
    throw new VmiConversionError("InvalidSpec", `disk ${disk.name}: a cdrom cannot be on the virtio bus`);
  }
  return { bus, device };
}

function driverOf(disk: VmiDisk, volume: PreparedDisk): DiskDriver {
  const driver: DiskDriver = { name: "qemu", type: volume.format };
  if (disk.cache) {
    const cache = CACHE_MODES.find((mode) => mode === disk.cache);
    if (cache === undefined)
      throw new VmiConversionError("InvalidSpec", `disk ${disk.name}: unknown cache mode ${disk.cache}`);
    driver.cache = cache;
  }
  if (disk.io) {
    const io = IO_MODES.find((mode) => mode === disk.io);
    if (io === undefined)
      throw new VmiConversionError("InvalidSpec", `disk ${disk.name}: unknown io mode ${disk.io}`);
    driver.io = io;
  }
  if (disk.errorPolicy) {
    // The schema makes it an enum; a VMI stored before that, or written around it, is checked here.
    const policy = ERROR_POLICIES.find((known) => known === disk.errorPolicy);
    if (policy === undefined) {
      throw new VmiConversionError(
        "InvalidSpec",
        `disk ${disk.name}: unknown errorPolicy ${disk.errorPolicy}`,
      );
    }
    driver.errorPolicy = policy;
  }
  return driver;
}

function domainDisk(
  disk: VmiDisk,
  volume: PreparedDisk,
  dev: string,
  bus: VmiBus,
  device: "disk" | "cdrom",
): Disk {
  const readonly =
    device === "cdrom" ? disk.cdrom?.readonly !== false : disk.disk?.readonly === true || volume.readOnly;
  const result: Disk = {
    type: "file",
    device,
    driver: driverOf(disk, volume),
    source: volume.path,
    ...(volume.opened ? { sourceFdGroup: volume.opened.fdGroup } : {}),
    target: { dev, bus: bus satisfies DiskBus },
    alias: `ua-${disk.name}`,
  };
  if (device === "cdrom" && disk.cdrom?.tray) {
    const tray = TRAY_STATES.find((state) => state === disk.cdrom?.tray);
    if (tray === undefined)
      throw new VmiConversionError("InvalidSpec", `disk ${disk.name}: unknown tray ${disk.cdrom.tray}`);
    result.target.tray = tray;
  }
  if (readonly) result.readonly = true;
  if (disk.shareable) result.shareable = true;
  if (disk.serial) result.serial = disk.serial;
  if (disk.bootOrder !== undefined) result.bootOrder = bootOrderOf(`disk ${disk.name}`, disk.bootOrder);
  return result;
}

/**
 * A CD-ROM disk that names no volume: a drive with an empty tray, as KubeVirt gives it. It has no
 * "ua-" alias, since status and hotplug map aliases back to volumes and this drive has none.
 */
function emptyCdrom(disk: VmiDisk, dev: string, bus: VmiBus): Disk {
  const result: Disk = {
    type: "file",
    device: "cdrom",
    driver: { name: "qemu", type: "raw" },
    target: { dev, bus: bus satisfies DiskBus },
    readonly: true,
  };
  const tray = TRAY_STATES.find((state) => state === disk.cdrom?.tray);
  if (tray !== undefined) result.target.tray = tray;
  if (disk.bootOrder !== undefined) result.bootOrder = bootOrderOf(`disk ${disk.name}`, disk.bootOrder);
  return result;
}

export const configureStorage: Configurator = (domain, { spec, prepared }) => {
  const counters = new Map<string, number>();
  const disks: Disk[] = [];
  const hotplugged = new Set((spec.volumes ?? []).filter(isHotpluggableVolume).map((volume) => volume.name));
  const volumes = spec.volumes ?? [];
  for (const disk of spec.domain.devices.disks ?? []) {
    // A hotpluggable volume's disk joins the running domain later (domain/hotplug-disks.ts).
    if (hotplugged.has(disk.name)) continue;
    const named = volumes.find((candidate) => candidate.name === disk.name);
    const volume = prepared.disks.get(disk.name);
    const { bus, device } = busAndDevice(disk);
    if (volume === undefined && (named !== undefined || device !== "cdrom")) {
      const why = named !== undefined ? "its volume was not prepared" : "no volume has that name";
      throw new VmiConversionError("InvalidSpec", `disk ${disk.name} names no usable volume: ${why}`);
    }
    const prefix = PREFIX_OF_BUS[bus];
    const index = counters.get(prefix) ?? 0;
    counters.set(prefix, index + 1);
    const dev = targetDeviceName(prefix, index);
    if (volume === undefined) {
      disks.push(emptyCdrom(disk, dev, bus));
      continue;
    }
    const converted = domainDisk(disk, volume, dev, bus, device);
    // KubeVirt's hostDisk `shared`: the file is shared with other VMs, so the disk is too.
    if (named?.hostDisk?.shared === true) converted.shareable = true;
    disks.push(converted);
  }
  if (disks.length > 0) domain.devices.disks = disks;
  // Always one virtio-scsi controller, as KubeVirt's: hotplugged disks go on it while the VM runs.
  {
    const scsi: Controller = { type: "scsi", index: 0, model: "virtio-scsi" };
    domain.devices.controllers = [...(domain.devices.controllers ?? []), scsi];
  }
};
