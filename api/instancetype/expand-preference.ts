import type { Disk } from "../vmi/disks.js";
import type { Interface } from "../vmi/interfaces.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import type { VirtualMachinePreferenceSpec } from "./preference-spec.js";

/**
 * A preference applied to a VMI spec (KubeVirt's `pkg/instancetype/preference/apply`): each value
 * fills only a field the spec leaves empty. Mutates `spec` and `annotations` (the caller's copies).
 * Only the fields kubevirt-ts honours are applied; admission refuses preferences with the others
 * (validation/preference-validation.ts), so none is dropped here without a word.
 */
export function applyPreference(
  preference: VirtualMachinePreferenceSpec,
  spec: VirtualMachineInstanceSpec,
  annotations: Record<string, string>,
): void {
  applyClock(preference, spec);
  applyCpuFeatures(preference, spec);
  applyDevices(preference, spec);
  applyFeatures(preference, spec);
  applyFirmware(preference, spec);
  const machineType = preference.machine?.preferredMachineType;
  if (machineType && !spec.domain.machine?.type)
    spec.domain.machine = { ...spec.domain.machine, type: machineType };
  if (preference.preferredTerminationGracePeriodSeconds !== undefined) {
    spec.terminationGracePeriodSeconds ??= preference.preferredTerminationGracePeriodSeconds;
  }
  if (preference.preferredSubdomain && !spec.subdomain) spec.subdomain = preference.preferredSubdomain;
  if (preference.preferredArchitecture && !spec.architecture)
    spec.architecture = preference.preferredArchitecture;
  for (const [name, value] of Object.entries(preference.annotations ?? {})) annotations[name] ??= value;
}

function applyClock(preference: VirtualMachinePreferenceSpec, spec: VirtualMachineInstanceSpec): void {
  const offset = preference.clock?.preferredClockOffset;
  const timer = preference.clock?.preferredTimer;
  if (offset === undefined && timer === undefined) return;
  spec.domain.clock ??= {};
  const clock = spec.domain.clock;
  if (offset !== undefined && clock.utc === undefined && clock.timezone === undefined) {
    Object.assign(clock, structuredClone(offset));
  }
  if (timer !== undefined && clock.timer === undefined) clock.timer = structuredClone(timer);
}

/** Preferred CPU features the spec does not name already are added. */
function applyCpuFeatures(preference: VirtualMachinePreferenceSpec, spec: VirtualMachineInstanceSpec): void {
  const preferred = preference.cpu?.preferredCPUFeatures;
  if (preferred === undefined || preferred.length === 0) return;
  spec.domain.cpu ??= {};
  const features = spec.domain.cpu.features ?? [];
  const named = new Set(features.map((feature) => feature.name));
  spec.domain.cpu.features = [
    ...features,
    ...preferred.filter((feature) => !named.has(feature.name)).map((feature) => ({ ...feature })),
  ];
}

function applyDevices(preference: VirtualMachinePreferenceSpec, spec: VirtualMachineInstanceSpec): void {
  const preferred = preference.devices;
  if (preferred === undefined) return;
  const devices = spec.domain.devices;
  devices.autoattachGraphicsDevice ??= preferred.preferredAutoattachGraphicsDevice;
  devices.autoattachMemBalloon ??= preferred.preferredAutoattachMemBalloon;
  devices.autoattachPodInterface ??= preferred.preferredAutoattachPodInterface;
  devices.autoattachSerialConsole ??= preferred.preferredAutoattachSerialConsole;
  devices.autoattachInputDevice ??= preferred.preferredAutoattachInputDevice;
  for (const name of [
    "autoattachGraphicsDevice",
    "autoattachMemBalloon",
    "autoattachPodInterface",
    "autoattachSerialConsole",
    "autoattachInputDevice",
  ] as const) {
    if (devices[name] === undefined) delete devices[name];
  }
  for (const disk of devices.disks ?? []) applyDiskPreferences(preference, disk);
  for (const iface of devices.interfaces ?? []) applyInterfacePreferences(preference, iface);
  if (preferred.preferredRng !== undefined && devices.rng === undefined) devices.rng = {};
  if (preferred.preferredVideoType && devices.video === undefined) {
    devices.video = { type: preferred.preferredVideoType };
  }
}

function applyDiskPreferences(preference: VirtualMachinePreferenceSpec, disk: Disk): void {
  const preferred = preference.devices ?? {};
  if (disk.disk !== undefined && !disk.disk.bus && preferred.preferredDiskBus) {
    disk.disk.bus = preferred.preferredDiskBus;
  }
  if (disk.cdrom !== undefined && !disk.cdrom.bus && preferred.preferredCdromBus) {
    disk.cdrom.bus = preferred.preferredCdromBus;
  }
  if (disk.lun !== undefined && !disk.lun.bus && preferred.preferredLunBus) {
    disk.lun.bus = preferred.preferredLunBus;
  }
  if (!disk.cache && preferred.preferredDiskCache) disk.cache = preferred.preferredDiskCache;
  if (!disk.io && preferred.preferredDiskIO) disk.io = preferred.preferredDiskIO;
}

/** The binding properties an interface may name (one of them makes it "bound"). */
const BINDINGS = [
  "bridge",
  "masquerade",
  "sriov",
  "slirp",
  "passt",
  "passtBinding",
  "macvtap",
  "binding",
] as const;

function applyInterfacePreferences(preference: VirtualMachinePreferenceSpec, iface: Interface): void {
  const preferred = preference.devices ?? {};
  if (!iface.model && preferred.preferredInterfaceModel) iface.model = preferred.preferredInterfaceModel;
  const bound = BINDINGS.some((binding) => iface[binding] !== undefined);
  if (preferred.preferredInterfaceMasquerade !== undefined && !bound) {
    iface.masquerade = {};
  }
}

function applyFeatures(preference: VirtualMachinePreferenceSpec, spec: VirtualMachineInstanceSpec): void {
  const preferred = preference.features;
  if (preferred === undefined) return;
  if (preferred.preferredApic === undefined && preferred.preferredSmm === undefined) return;
  spec.domain.features ??= {};
  const features = spec.domain.features;
  if (preferred.preferredApic !== undefined) features.apic ??= { ...preferred.preferredApic };
  if (preferred.preferredSmm !== undefined) features.smm ??= { ...preferred.preferredSmm };
}

/** A bootloader the spec does not choose: BIOS, or EFI (preferredEfi, or the deprecated flags). */
function applyFirmware(preference: VirtualMachinePreferenceSpec, spec: VirtualMachineInstanceSpec): void {
  const preferred = preference.firmware;
  if (preferred === undefined) return;
  if (spec.domain.firmware?.bootloader !== undefined) return;
  let bootloader: NonNullable<NonNullable<VirtualMachineInstanceSpec["domain"]["firmware"]>["bootloader"]>;
  if (preferred.preferredUseBios) {
    bootloader = { bios: preferred.preferredUseBiosSerial ? { useSerial: true } : {} };
  } else if (preferred.preferredEfi !== undefined) {
    bootloader = { efi: { ...preferred.preferredEfi } };
  } else if (preferred.preferredUseEfi) {
    bootloader = { efi: { secureBoot: preferred.preferredUseSecureBoot === true } };
  } else {
    return;
  }
  spec.domain.firmware = { ...spec.domain.firmware, bootloader };
}
