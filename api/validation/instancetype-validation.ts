import { Quantity } from "../../runtime/quantity/quantity.js";
import type { VirtualMachineInstancetypeSpec } from "../instancetype/instancetype-spec.js";
import type { VirtualMachinePreferenceSpec } from "../instancetype/preference-spec.js";
import { type Cause, forbidden, invalid } from "./cause.js";
import { child } from "./field-path.js";

/**
 * Instancetypes and preferences as virt-api checks them. An object is admitted by KubeVirt's own
 * rules (`validateInstancetypeSpec`, `validatePreferenceSpec`): it is data, and KubeVirt's manifests
 * and common set must apply unchanged. What a VM would get from it that kubevirt-ts does not
 * honour yet (`unhonouredInstancetypeCauses`, `unhonouredPreferenceCauses`) refuses the VM that
 * uses it, with the reason: an instancetype that asks for dedicated CPUs or hugepages must not
 * quietly give a VM neither.
 */

const NOT_YET = "is not supported yet";

/** Instancetype fields kubevirt-ts cannot give a VM yet, and what they would need. */
function unsupportedInstancetypeFields(spec: VirtualMachineInstancetypeSpec): [string[], string][] {
  const { cpu, memory } = spec;
  const found: [boolean, string[], string][] = [
    [cpu.dedicatedCPUPlacement === true, ["cpu", "dedicatedCPUPlacement"], "dedicated CPU placement"],
    [cpu.isolateEmulatorThread === true, ["cpu", "isolateEmulatorThread"], "an isolated emulator thread"],
    [cpu.numa !== undefined, ["cpu", "numa"], "guest NUMA topology"],
    [cpu.realtime !== undefined, ["cpu", "realtime"], "realtime tuning"],
    [cpu.maxSockets !== undefined, ["cpu", "maxSockets"], "CPU hotplug (maxSockets)"],
    [memory.hugepages !== undefined, ["memory", "hugepages"], "hugepages"],
    [memory.maxGuest !== undefined, ["memory", "maxGuest"], "memory hotplug (maxGuest)"],
    [(spec.gpus ?? []).length > 0, ["gpus"], "GPUs"],
    [(spec.hostDevices ?? []).length > 0, ["hostDevices"], "host devices"],
    [spec.ioThreadsPolicy !== undefined, ["ioThreadsPolicy"], "ioThreadsPolicy"],
    [spec.ioThreads !== undefined, ["ioThreads"], "ioThreads"],
    [spec.launchSecurity !== undefined, ["launchSecurity"], "launchSecurity (SEV, TDX)"],
  ];
  return found.filter(([present]) => present).map(([, path, what]) => [path, what]);
}

export function validateInstancetypeSpec(field: string, spec: VirtualMachineInstancetypeSpec): Cause[] {
  const guest = Quantity.tryParse(spec.memory.guest);
  if (guest !== undefined && guest.sign() > 0) return [];
  const at = child(field, "memory", "guest");
  return [invalid(at, `${at} must be greater than 0`)];
}

/** What a VM would get from this instancetype that kubevirt-ts cannot give it yet. */
export function unhonouredInstancetypeCauses(field: string, spec: VirtualMachineInstancetypeSpec): Cause[] {
  return unsupportedInstancetypeFields(spec).map(([path, what]) => {
    const at = child(field, ...path);
    return forbidden(at, `${at}: ${what} ${NOT_YET}`);
  });
}

/** Preference fields whose VMI counterpart kubevirt-ts does not honour (or cannot fill) yet. */
const UNSUPPORTED_PREFERENCE_FIELDS: readonly [string[], string][] = [
  [["devices", "preferredDisableHotplug"], "disableHotplug"],
  [["devices", "preferredVirtualGPUOptions"], "virtual GPU options"],
  [["devices", "preferredSoundModel"], "a sound device"],
  [["devices", "preferredUseVirtioTransitional"], "virtio transitional devices"],
  [["devices", "preferredInputBus"], "a preferred input bus (the VM's defaults always choose usb)"],
  [["devices", "preferredInputType"], "a preferred input type"],
  [["devices", "preferredDiskDedicatedIoThread"], "dedicated disk IO threads"],
  [["devices", "preferredDiskBlockSize"], "disk block sizes"],
  [["devices", "preferredBlockMultiQueue"], "block multi-queue"],
  [["devices", "preferredNetworkInterfaceMultiQueue"], "network interface multi-queue"],
  [["devices", "preferredTPM"], "a TPM"],
  [["devices", "preferredPanicDeviceModel"], "panic devices"],
  [["features", "preferredHyperv"], "Hyper-V enlightenments"],
  [["features", "preferredKvm"], "KVM feature settings"],
  [["features", "preferredPvspinlock"], "pvspinlock"],
  [["volumes", "preferredStorageClassName"], "a preferred storage class"],
  [["preferredLaunchSecurity"], "launchSecurity (SEV, TDX)"],
];

function valueAt(spec: VirtualMachinePreferenceSpec, path: readonly string[]): unknown {
  let value: unknown = spec;
  for (const name of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/** The preference annotations a VMI gets that kubevirt-ts does not act on yet. */
const UNHONOURED_ANNOTATIONS: Readonly<Record<string, string>> = {
  "kubevirt.io/disablePCIHole64": "disabling the 64-bit PCI hole",
};

/** Hints a VM would get from this preference that kubevirt-ts cannot give it yet. */
export function unhonouredPreferenceCauses(field: string, spec: VirtualMachinePreferenceSpec): Cause[] {
  const causes: Cause[] = [];
  for (const [path, what] of UNSUPPORTED_PREFERENCE_FIELDS) {
    const value = valueAt(spec, path);
    // An explicit false or empty string asks for nothing kubevirt-ts lacks.
    if (value === undefined || value === false || value === "") continue;
    const at = child(field, ...path);
    causes.push(forbidden(at, `${at}: ${what} ${NOT_YET}`));
  }
  // A VM has ACPI unless it turns it off itself, so only a preference for no ACPI goes unheard.
  if (spec.features?.preferredAcpi?.enabled === false) {
    const at = child(field, "features", "preferredAcpi");
    causes.push(
      forbidden(at, `${at}: a preference for no ACPI ${NOT_YET} (VMs have ACPI unless they turn it off)`),
    );
  }
  for (const [annotation, what] of Object.entries(UNHONOURED_ANNOTATIONS)) {
    if (spec.annotations?.[annotation] === undefined) continue;
    const at = `${child(field, "annotations")}[${annotation}]`;
    causes.push(forbidden(at, `${at}: ${what} ${NOT_YET}`));
  }
  return causes;
}

export function validatePreferenceSpec(field: string, spec: VirtualMachinePreferenceSpec): Cause[] {
  const causes: Cause[] = [];
  const spread = spec.cpu?.spreadOptions;
  if (spread?.across === "CoresThreads" && spread.ratio !== undefined && spread.ratio !== 2) {
    const at = child(field, "cpu", "spreadOptions", "ratio");
    causes.push(
      invalid(
        at,
        "only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads",
      ),
    );
  }
  const requiredMemory = spec.requirements?.memory?.guest;
  if (requiredMemory !== undefined && Quantity.tryParse(requiredMemory) === undefined) {
    const at = child(field, "requirements", "memory", "guest");
    causes.push(invalid(at, `${at} is not a quantity`));
  }
  return causes;
}
