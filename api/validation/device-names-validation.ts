import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid } from "./cause.js";
import { dns1123LabelErrors } from "./dns-names.js";
import { child, index } from "./field-path.js";

/**
 * What libvirt accepts after a user alias's "ua-" prefix, and what KubeVirt allows in interface
 * names (validateInterfaceNameFormat).
 */
const ALIAS_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Names of disks, volumes, interfaces and inputs. On the node they become file names in the VM's
 * directory (`<volume>.qcow2`) and libvirt device aliases (`ua-<name>`), so each is confined to a
 * charset that cannot spell a path or break an alias. Disks must be DNS-1123 labels (KubeVirt's
 * validateDiskNameAsContainerName); volumes too, since each one's disk carries its name (and
 * memory dump volumes, which have no disk, still name files); interfaces take KubeVirt's format;
 * inputs take libvirt's alias charset, which KubeVirt leaves to libvirt to refuse.
 */
export function validateDeviceNames(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const devices = spec.domain.devices;
  return [
    ...labelNames(child(field, "domain", "devices", "disks"), devices.disks ?? []),
    ...labelNames(child(field, "volumes"), spec.volumes ?? []),
    ...aliasNames(
      child(field, "domain", "devices", "interfaces"),
      devices.interfaces ?? [],
      "Network interface name can only contain alphabetical characters, numbers, dashes (-) or underscores (_)",
    ),
    ...aliasNames(
      child(field, "domain", "devices", "inputs"),
      devices.inputs ?? [],
      "Input device name can only contain alphabetical characters, numbers, dashes (-) or underscores (_)",
    ),
  ];
}

function labelNames(listField: string, items: readonly { name: string }[]): Cause[] {
  return items.flatMap((item, position) =>
    dns1123LabelErrors(item.name).map((error) => invalid(child(index(listField, position), "name"), error)),
  );
}

function aliasNames(listField: string, items: readonly { name: string }[], message: string): Cause[] {
  return items.flatMap((item, position) =>
    ALIAS_NAME.test(item.name) ? [] : [invalid(child(index(listField, position), "name"), message)],
  );
}
