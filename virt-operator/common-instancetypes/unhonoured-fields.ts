/**
 * What of the common set kubevirt-ts cannot give a VM yet, and what follows for the objects that
 * ask for it. The judge is virt-api's admission of a VM that uses them
 * (api/validation/instancetype-validation.ts), so what is said here is what a user is told, and
 * it shrinks by itself as support grows.
 *
 * Every instancetype and preference is installed, as KubeVirt installs it: a VM that uses one asking
 * for what is not honoured yet (hugepages, dedicated CPUs) is refused with the reason, never given
 * less. A preference only fills what a VM leaves empty, so a refused hint is dropped from the
 * installed object when the preference stays what its name says without it (a dedicated IO
 * thread is a tuning), and kept, refusing the VM, when the hint is its point (a TPM for Windows 11,
 * multi-queue NICs for DPDK).
 */
import {
  unhonouredInstancetypeCauses,
  unhonouredPreferenceCauses,
  type VirtualMachineInstancetypeSpec,
  type VirtualMachinePreferenceSpec,
} from "../../api/index.js";

/** The field paths admission reports, under this root. */
const ROOT = "spec";

/** Why an instancetype cannot be installed: admission's messages; empty when it can. */
export function unhonouredInstancetypeFields(spec: VirtualMachineInstancetypeSpec): string[] {
  return unhonouredInstancetypeCauses(ROOT, spec).map((cause) => cause.message);
}

/** Refused preference hints a preference can do without, and what the VM gets instead. */
const DROPPABLE_HINTS: Readonly<Record<string, string>> = {
  "spec.devices.preferredDiskDedicatedIoThread": "disks share QEMU's IO thread",
  "spec.features.preferredHyperv": "Windows runs without Hyper-V enlightenments, only slower",
  "spec.devices.preferredAutoattachInputDevice": "no tablet: the VNC pointer is relative",
};

/** A desktop preference is its tablet: there, the input hints are the point and are not dropped. */
const INPUT_HINTS: Readonly<Record<string, string>> = {
  "spec.devices.preferredInputBus": "no tablet: the VNC pointer is relative",
  "spec.devices.preferredInputType": "no tablet: the VNC pointer is relative",
};

export interface InstalledPreference {
  readonly spec: VirtualMachinePreferenceSpec;
  /** The hints left out, as field paths. */
  readonly dropped: string[];
  /** Why a VM cannot use it yet (admission's messages); empty when it can. */
  readonly unusable: string[];
}

/** A preference as installed: without the hints it can do without, and what still stops a VM. */
export function installedPreference(
  spec: VirtualMachinePreferenceSpec,
  options: { readonly desktop?: boolean } = {},
): InstalledPreference {
  const droppable = options.desktop ? DROPPABLE_HINTS : { ...DROPPABLE_HINTS, ...INPUT_HINTS };
  const refused = unhonouredPreferenceCauses(ROOT, spec);
  const dropped = refused.filter((cause) => droppable[cause.field] !== undefined).map((cause) => cause.field);
  const installed = structuredClone(spec);
  for (const field of dropped) deleteAt(installed, field.split(".").slice(1));
  const unusable = refused
    .filter((cause) => droppable[cause.field] === undefined)
    .map((cause) => cause.message);
  return { spec: installed, dropped, unusable };
}

/** Deletes the field at `path` and the objects it leaves empty. */
function deleteAt(target: object, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const record = target as Record<string, unknown>;
  const value = record[head];
  if (rest.length === 0) {
    delete record[head];
    return;
  }
  if (typeof value !== "object" || value === null) return;
  deleteAt(value, rest);
  if (Object.keys(value).length === 0) delete record[head];
}
