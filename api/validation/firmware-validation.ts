import { posix } from "node:path";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, invalid, required } from "./cause.js";
import { firstControlCharacter } from "./control-characters.js";
import { child } from "./field-path.js";

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * `spec.domain.firmware` (virt-api's validateFirmware): BIOS and EFI are exclusive; a kernel boot
 * names its image and at least one absolute path without relative components; kernel arguments
 * need the kernel. Then the text that reaches the node (validateFirmwareText).
 */
export function validateFirmware(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const firmwareField = child(field, "domain", "firmware");
  const firmware = spec.domain.firmware;
  if (firmware === undefined) return [];
  const causes: Cause[] = [];
  const bootloader = firmware.bootloader;
  if (bootloader?.efi !== undefined && bootloader.bios !== undefined) {
    const bootloaderField = child(firmwareField, "bootloader");
    causes.push(
      invalid(
        bootloaderField,
        `${bootloaderField} has both EFI and BIOS configured, but they are mutually exclusive.`,
      ),
    );
  }
  const kernelBoot = firmware.kernelBoot;
  const kernelBootField = child(firmwareField, "kernelBoot");
  const container = kernelBoot?.container;
  const containerField = child(kernelBootField, "container");
  if (kernelBoot !== undefined && container === undefined && kernelBoot.kernelArgs) {
    causes.push(
      invalid(
        child(kernelBootField, "kernelArgs"),
        "kernel arguments cannot be provided without an external kernel",
      ),
    );
  }
  if (container !== undefined) {
    if (container.image === "") {
      causes.push(
        required(child(containerField, "image"), `${containerField} must be defined with an image`),
      );
    }
    if (!container.kernelPath && !container.initrdPath) {
      causes.push(
        required(
          containerField,
          `${containerField} must be defined with at least one of the following: kernelPath, initrdPath`,
        ),
      );
    }
  }
  return [...causes, ...validateFirmwareText(field, spec)];
}

/**
 * The firmware values that reach the node as text: the SMBIOS UUID and serial (a QEMU `-smbios`
 * argument), the kernel command line (`<cmdline>`, QEMU's `-append`) and the kernel and initrd
 * paths (looked up inside the kernel-boot image). virt-handler checks these again before it uses
 * them, for VMIs stored before the rules existed.
 */
export function validateFirmwareText(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const firmwareField = child(field, "domain", "firmware");
  const firmware = spec.domain.firmware;
  if (firmware === undefined) return [];
  const causes: Cause[] = [];
  if (firmware.uuid && !UUID.test(firmware.uuid)) {
    causes.push(
      invalid(
        child(firmwareField, "uuid"),
        `${child(firmwareField, "uuid")} must be a UUID such as 5d307ca9-b3ef-428c-8861-06e72d69f223`,
      ),
    );
  }
  causes.push(...freeText(child(firmwareField, "serial"), firmware.serial));
  const kernelBootField = child(firmwareField, "kernelBoot");
  causes.push(...freeText(child(kernelBootField, "kernelArgs"), firmware.kernelBoot?.kernelArgs));
  const container = firmware.kernelBoot?.container;
  const containerField = child(kernelBootField, "container");
  if (container?.kernelPath)
    causes.push(...validateImagePath(child(containerField, "kernelPath"), container.kernelPath));
  if (container?.initrdPath)
    causes.push(...validateImagePath(child(containerField, "initrdPath"), container.initrdPath));
  return causes;
}

function freeText(field: string, value: string | undefined): Cause[] {
  const control = value ? firstControlCharacter(value) : undefined;
  return control === undefined
    ? []
    : [invalid(field, `${field} must not contain control characters (found ${control})`)];
}

/**
 * A path inside an image (KubeVirt's storage admitters' ValidatePath): not the root, absolute and
 * already clean (no `.` or `..` components, no doubled slashes); and no NUL, which no file name has.
 */
export function validateImagePath(field: string, path: string): Cause[] {
  if (path === "/") return [invalid(field, `${field} must not point to root`)];
  // Go's filepath.Join("/", path) against the path without one trailing slash, as KubeVirt compares.
  const cleaned = posix.join("/", path).replace(/(.)\/$/, "$1");
  const provided = path.endsWith("/") ? path.slice(0, -1) : path;
  if (cleaned !== provided || path.includes("\0")) {
    return [invalid(field, `${field} must be an absolute path to a file without relative components`)];
  }
  return [];
}
