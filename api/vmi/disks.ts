import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../schema/kube-types.js";
import { FeatureStateSchema } from "./features.js";

/**
 * `spec.domain.devices.disks[]`: a named disk whose target is one of `disk`, `cdrom` or `lun`
 * (a union expressed structurally: all three are optional properties; validation enforces at most
 * one, and defaulting picks `disk` when none is set, as KubeVirt does).
 */

export const DISK_BUSES = ["virtio", "sata", "scsi", "usb"] as const;
export type DiskBus = (typeof DISK_BUSES)[number];
export const DISK_CACHE_MODES = ["none", "writethrough", "writeback"] as const;
export const DISK_IO_MODES = ["native", "threads"] as const;
export const DISK_ERROR_POLICIES = ["stop", "ignore", "report", "enospace"] as const;

/** Bus is a plain string in the schema so that an unknown bus gets KubeVirt's own message. */
const Bus = () => Type.Optional(Type.String({ description: "One of virtio, sata, scsi, usb." }));

export const DiskTargetSchema = Type.Object({
  bus: Bus(),
  readonly: Type.Optional(Type.Boolean()),
  pciAddress: Type.Optional(Type.String()),
});

export const CdromTargetSchema = Type.Object({
  bus: Bus(),
  readonly: Type.Optional(Type.Boolean({ description: "Defaults to true." })),
  tray: Type.Optional(StringEnum(["open", "closed"])),
});

export const LunTargetSchema = Type.Object({
  bus: Bus(),
  readonly: Type.Optional(Type.Boolean()),
  reservation: Type.Optional(Type.Boolean()),
});

export const DiskSchema = Type.Object({
  name: Type.String(),
  disk: Type.Optional(DiskTargetSchema),
  cdrom: Type.Optional(CdromTargetSchema),
  lun: Type.Optional(LunTargetSchema),
  bootOrder: Type.Optional(Type.Integer({ description: "Greater than 0; lower boots first." })),
  serial: Type.Optional(Type.String()),
  dedicatedIOThread: Type.Optional(Type.Boolean()),
  cache: Type.Optional(Type.String()),
  io: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
  blockSize: Type.Optional(
    Type.Object({
      custom: Type.Optional(
        Type.Object({
          logical: Type.Optional(Type.Integer()),
          physical: Type.Optional(Type.Integer()),
          discardGranularity: Type.Optional(Type.Integer()),
        }),
      ),
      matchVolume: Type.Optional(FeatureStateSchema),
    }),
  ),
  shareable: Type.Optional(Type.Boolean()),
  errorPolicy: Type.Optional(StringEnum(DISK_ERROR_POLICIES)),
  changedBlockTracking: Type.Optional(Type.Boolean()),
});
export type Disk = Static<typeof DiskSchema>;

/** `spec.domain.devices.filesystems[]`: virtiofs shares that consume a volume instead of a disk. */
export const FilesystemSchema = Type.Object({
  name: Type.String(),
  virtiofs: Type.Object({}),
});
export type Filesystem = Static<typeof FilesystemSchema>;
