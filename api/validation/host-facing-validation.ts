import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid } from "./cause.js";
import { validateDeviceNames } from "./device-names-validation.js";
import { validateSerial } from "./disks-validation.js";
import { dns1123LabelErrors } from "./dns-names.js";
import { validateDomainName } from "./domain-name-validation.js";
import { child, index } from "./field-path.js";
import { validateFirmwareText } from "./firmware-validation.js";
import { validatePlatformNames } from "./platform-names-validation.js";

/**
 * The rules that keep a VMI's values confined once they reach its node, where they become the
 * libvirt domain name, file names and device aliases, XML text, QEMU arguments and cloud-init
 * meta-data. Admission applies them with everything else; virt-handler applies exactly these
 * again before it creates anything for a VMI, because a VMI stored before a rule existed (or
 * while virt-api's webhook was down) never went through it.
 */
export function validateHostFacingValues(vmi: {
  metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined;
  spec: VirtualMachineInstanceSpec;
}): Cause[] {
  const spec = vmi.spec;
  const disksField = child("spec", "domain", "devices", "disks");
  return [
    ...validateDomainName(vmi.metadata),
    ...validateHostname("spec", spec),
    ...validateDeviceNames("spec", spec),
    ...(spec.domain.devices.disks ?? []).flatMap((disk, position) =>
      validateSerial(index(disksField, position), disk.serial),
    ),
    ...validateFirmwareText("spec", spec),
    ...validatePlatformNames("spec", spec),
  ];
}

/** `spec.hostname` is a DNS-1123 label (KubeVirt's message): it becomes the guest's hostname. */
export function validateHostname(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const errors = spec.hostname ? dns1123LabelErrors(spec.hostname) : [];
  if (errors.length === 0) return [];
  const hostnameField = child(field, "hostname");
  return [
    invalid(
      hostnameField,
      `${hostnameField} does not conform to the kubernetes DNS_LABEL rules : ${errors.join(", ")}`,
    ),
  ];
}
