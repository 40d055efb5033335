import { type Static, Type } from "@sinclair/typebox";
import { PULL_POLICIES } from "../core/scheduling.js";
import { StringEnum } from "../schema/kube-types.js";

/** `spec.domain.firmware` and `spec.domain.machine`. */

export const KernelBootContainerSchema = Type.Object({
  image: Type.String(),
  imagePullSecret: Type.Optional(Type.String()),
  imagePullPolicy: Type.Optional(StringEnum(PULL_POLICIES)),
  kernelPath: Type.Optional(Type.String()),
  initrdPath: Type.Optional(Type.String()),
});

export const KernelBootSchema = Type.Object({
  kernelArgs: Type.Optional(Type.String()),
  container: Type.Optional(KernelBootContainerSchema),
});

export const BootloaderSchema = Type.Object({
  bios: Type.Optional(Type.Object({ useSerial: Type.Optional(Type.Boolean()) })),
  efi: Type.Optional(
    Type.Object({
      secureBoot: Type.Optional(Type.Boolean({ description: "Defaults to true; requires SMM." })),
      persistent: Type.Optional(Type.Boolean()),
    }),
  ),
});

export const FirmwareSchema = Type.Object({
  uuid: Type.Optional(Type.String({ description: "UUID reported by the BIOS; defaulted from the VM name." })),
  serial: Type.Optional(Type.String()),
  bootloader: Type.Optional(BootloaderSchema),
  kernelBoot: Type.Optional(KernelBootSchema),
  acpi: Type.Optional(
    Type.Object({ slicNameRef: Type.Optional(Type.String()), msdmNameRef: Type.Optional(Type.String()) }),
  ),
});
export type Firmware = Static<typeof FirmwareSchema>;

export const MachineSchema = Type.Object({
  type: Type.Optional(Type.String({ description: "QEMU machine type; defaults to q35." })),
});
export type Machine = Static<typeof MachineSchema>;

export const ChassisSchema = Type.Object({
  manufacturer: Type.Optional(Type.String()),
  version: Type.Optional(Type.String()),
  serial: Type.Optional(Type.String()),
  asset: Type.Optional(Type.String()),
  sku: Type.Optional(Type.String()),
});
