/**
 * What of the common set kubevirt-ts cannot give a VM yet, and what follows for the objects that
 * ask for it. The judge is virt-api's own admission of instancetypes and preferences
 * (api/validation/instancetype-validation.ts refuses every field not honoured yet), so the set
 * installed is always one the cluster accepts, and it grows by itself as support does.
 *
 * An instancetype a rule refuses is left out, and its whole series with it: a size that promises
 * hugepages or dedicated CPUs must not quietly give neither. A preference only fills what a VM
 * leaves empty, so a refused hint is dropped when the preference stays what its name says without
 * it (a dedicated IO thread is a tuning), and the preference is left out when the hint is its
 * point (a TPM for Windows 11, multi-queue NICs for DPDK).
 */
import {
  type VirtualMachineInstancetypeSpec,
  type VirtualMachinePreferenceSpec,
  validateInstancetypeSpec,
  validatePreferenceSpec,
} from "../../api/index.js";

/** The field paths admission reports, under this root. */
const ROOT = "spec";

/** Why an instancetype cannot be installed: admission's messages; empty when it can. */
export function unhonouredInstancetypeFields(spec: VirtualMachineInstancetypeSpec): string[] {
  return validateInstancetypeSpec(ROOT, spec).map((cause) => cause.message);
}

/** Refused preference hints a preference can do without, and what the VM gets instead. */
const DROPPABLE_HINTS: Readonly<Record<string, string>> = {
  "spec.devices.preferredDiskDedicatedIoThread": "disks share QEMU's IO thread",
  "spec.features.preferredHyperv": "Windows runs without Hyper-V enlightenments, only slower",
  "spec.features.preferredAcpi": "ACPI is on anyway (the VM's defaults)",
  "spec.devices.preferredAutoattachInputDevice": "no tablet: the VNC pointer is relative",
};

/** A desktop preference is its tablet: there, the input hints are the point and are not dropped. */
const INPUT_HINTS: Readonly<Record<string, string>> = {
  "spec.devices.preferredInputBus": "no tablet: the VNC pointer is relative",
  "spec.devices.preferredInputType": "no tablet: the VNC pointer is relative",
};

/** The one architecture the nodes run (virt-handler converts for the host's, amd64). */
export const HONOURED_ARCHITECTURE = "amd64";

/** What admission lets through but kubevirt-ts does not do either, with the reason. */
function otherOmissions(spec: VirtualMachinePreferenceSpec): string[] {
  const reasons: string[] = [];
  const architectures = [spec.preferredArchitecture, spec.requirements?.architecture];
  if (architectures.some((arch) => arch !== undefined && arch !== HONOURED_ARCHITECTURE))
    reasons.push(`spec.preferredArchitecture: only ${HONOURED_ARCHITECTURE} guests are supported`);
  if (spec.annotations?.["kubevirt.io/disablePCIHole64"] !== undefined)
    reasons.push(
      "spec.annotations[kubevirt.io/disablePCIHole64]: disabling the 64-bit PCI hole is not supported yet, and the old Windows it is for needs it",
    );
  return reasons;
}

export type PreferenceSupport =
  | { readonly installed: true; readonly spec: VirtualMachinePreferenceSpec; readonly dropped: string[] }
  | { readonly installed: false; readonly reasons: string[] };

/** Whether a preference is installed, and as what: without the hints that can be dropped. */
export function preferenceSupport(
  spec: VirtualMachinePreferenceSpec,
  options: { readonly desktop?: boolean } = {},
): PreferenceSupport {
  const droppable = options.desktop ? DROPPABLE_HINTS : { ...DROPPABLE_HINTS, ...INPUT_HINTS };
  const refused = validatePreferenceSpec(ROOT, spec);
  const kept = refused.filter((cause) => droppable[cause.field] === undefined);
  const reasons = [...kept.map((cause) => cause.message), ...otherOmissions(spec)];
  if (reasons.length > 0) return { installed: false, reasons };
  const installed = structuredClone(spec);
  const dropped = refused.map((cause) => cause.field);
  for (const field of dropped) deleteAt(installed, field.split(".").slice(1));
  return { installed: true, spec: installed, dropped };
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
