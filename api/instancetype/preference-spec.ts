import { type Static, Type } from "@sinclair/typebox";
import { Int32, Int64, Marker, QuantityValue, StringEnum, StringMap } from "../schema/kube-types.js";
import { ClockSchema } from "../vmi/clock.js";
import { CpuFeatureSchema } from "../vmi/cpu.js";
import { DevicesSchema, GpuSchema } from "../vmi/devices.js";
import { DiskSchema } from "../vmi/disks.js";
import { DomainSpecSchema } from "../vmi/domain.js";
import { FeaturesSchema } from "../vmi/features.js";
import { BootloaderSchema } from "../vmi/firmware.js";

/**
 * VirtualMachinePreferenceSpec (`instancetype.kubevirt.io/v1beta1`): values that fill the VM's
 * fields the user left empty. Every field is optional; the nested shapes are the VMI's own.
 */

/** KubeVirt's PreferredCPUTopology, with the deprecated `prefer*` spellings it still accepts. */
export const PREFERRED_CPU_TOPOLOGIES = [
  "preferCores",
  "preferSockets",
  "preferThreads",
  "preferSpread",
  "preferAny",
  "cores",
  "sockets",
  "threads",
  "spread",
  "any",
] as const;
export type PreferredCpuTopology = (typeof PREFERRED_CPU_TOPOLOGIES)[number];

export const SPREAD_ACROSS = ["SocketsCoresThreads", "SocketsCores", "CoresThreads"] as const;
export type SpreadAcross = (typeof SPREAD_ACROSS)[number];

const OptionalBoolean = () => Type.Optional(Type.Boolean());
const OptionalString = () => Type.Optional(Type.String());

export const CpuPreferencesSchema = Type.Object({
  preferredCPUTopology: Type.Optional(StringEnum(PREFERRED_CPU_TOPOLOGIES)),
  spreadOptions: Type.Optional(
    Type.Object({
      across: Type.Optional(StringEnum(SPREAD_ACROSS)),
      ratio: Type.Optional(Int32({ minimum: 1 })),
    }),
  ),
  preferredCPUFeatures: Type.Optional(Type.Array(CpuFeatureSchema)),
});

export const DevicePreferencesSchema = Type.Object({
  preferredAutoattachGraphicsDevice: OptionalBoolean(),
  preferredAutoattachMemBalloon: OptionalBoolean(),
  preferredAutoattachPodInterface: OptionalBoolean(),
  preferredAutoattachSerialConsole: OptionalBoolean(),
  preferredAutoattachInputDevice: OptionalBoolean(),
  preferredDisableHotplug: OptionalBoolean(),
  preferredVirtualGPUOptions: GpuSchema.properties.virtualGPUOptions,
  preferredSoundModel: OptionalString(),
  preferredUseVirtioTransitional: OptionalBoolean(),
  preferredInputBus: OptionalString(),
  preferredInputType: OptionalString(),
  preferredDiskBus: OptionalString(),
  preferredLunBus: OptionalString(),
  preferredCdromBus: OptionalString(),
  preferredDiskDedicatedIoThread: OptionalBoolean(),
  preferredDiskCache: OptionalString(),
  preferredDiskIO: OptionalString(),
  preferredDiskBlockSize: DiskSchema.properties.blockSize,
  preferredInterfaceModel: OptionalString(),
  preferredRng: Type.Optional(Marker()),
  preferredBlockMultiQueue: OptionalBoolean(),
  preferredNetworkInterfaceMultiQueue: OptionalBoolean(),
  preferredTPM: DevicesSchema.properties.tpm,
  preferredInterfaceMasquerade: Type.Optional(Marker()),
  preferredPanicDeviceModel: Type.Optional(StringEnum(["hyperv", "isa", "pvpanic"])),
  preferredVideoType: OptionalString(),
});
export type DevicePreferences = Static<typeof DevicePreferencesSchema>;

export const FeaturePreferencesSchema = Type.Object({
  preferredAcpi: FeaturesSchema.properties.acpi,
  preferredApic: FeaturesSchema.properties.apic,
  preferredHyperv: FeaturesSchema.properties.hyperv,
  preferredKvm: FeaturesSchema.properties.kvm,
  preferredPvspinlock: FeaturesSchema.properties.pvspinlock,
  preferredSmm: FeaturesSchema.properties.smm,
});
export type FeaturePreferences = Static<typeof FeaturePreferencesSchema>;

export const FirmwarePreferencesSchema = Type.Object({
  preferredUseBios: OptionalBoolean(),
  preferredUseBiosSerial: OptionalBoolean(),
  preferredUseEfi: Type.Optional(Type.Boolean({ description: "Deprecated: use preferredEfi." })),
  preferredUseSecureBoot: Type.Optional(Type.Boolean({ description: "Deprecated: use preferredEfi." })),
  preferredEfi: BootloaderSchema.properties.efi,
});
export type FirmwarePreferences = Static<typeof FirmwarePreferencesSchema>;

export const ClockPreferencesSchema = Type.Object({
  preferredClockOffset: Type.Optional(
    Type.Object({ utc: ClockSchema.properties.utc, timezone: ClockSchema.properties.timezone }),
  ),
  preferredTimer: ClockSchema.properties.timer,
});

export const PreferenceRequirementsSchema = Type.Object({
  cpu: Type.Optional(Type.Object({ guest: Int32({ minimum: 0 }) })),
  memory: Type.Optional(Type.Object({ guest: QuantityValue() })),
  architecture: OptionalString(),
});

export const VirtualMachinePreferenceSpecSchema = Type.Object({
  clock: Type.Optional(ClockPreferencesSchema),
  cpu: Type.Optional(CpuPreferencesSchema),
  devices: Type.Optional(DevicePreferencesSchema),
  features: Type.Optional(FeaturePreferencesSchema),
  firmware: Type.Optional(FirmwarePreferencesSchema),
  machine: Type.Optional(Type.Object({ preferredMachineType: OptionalString() })),
  volumes: Type.Optional(Type.Object({ preferredStorageClassName: OptionalString() })),
  preferredSubdomain: OptionalString(),
  preferredTerminationGracePeriodSeconds: Type.Optional(Int64()),
  requirements: Type.Optional(PreferenceRequirementsSchema),
  annotations: Type.Optional(StringMap()),
  preferSpreadSocketToCoreRatio: Type.Optional(Int32({ minimum: 0 })),
  preferredArchitecture: OptionalString(),
  preferredLaunchSecurity: DomainSpecSchema.properties.launchSecurity,
});
export type VirtualMachinePreferenceSpec = Static<typeof VirtualMachinePreferenceSpecSchema>;
