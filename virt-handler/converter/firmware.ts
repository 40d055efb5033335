// Firmware: BIOS (SeaBIOS) by default, EFI when asked and installed, direct kernel boot from the prepared
// kernelBoot files, and the SMBIOS identity the guest sees (firmware.uuid and firmware.serial).
//
// The domain's own UUID is the VMI's uid, not firmware.uuid: one libvirt serves every VM of the node,
// and KubeVirt's default firmware UUID derives from the VM name alone, so two namespaces' "vm1" would
// collide (KubeVirt does not see this: each of its launcher pods has a libvirt of its own). The guest
// still gets firmware.uuid, through QEMU's `-smbios type=1`, which the domain model offers no element for.
import { createHash } from "node:crypto";
import { access } from "node:fs/promises";
import { legacyFirmwareUuid } from "../../api/index.js";
import type { Configurator, ConversionInput } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The VMI's uid when it is a UUID (Kubernetes uids are), else a UUID derived from it. */
export function domainUuidOf(uid: string): string {
  if (UUID_PATTERN.test(uid)) return uid.toLowerCase();
  const hex = createHash("sha256").update(uid).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The UUID the guest's SMBIOS reports: firmware.uuid, else KubeVirt's default (derived from the name). */
export function firmwareUuidOf(input: ConversionInput): string {
  return input.spec.domain.firmware?.uuid || legacyFirmwareUuid(input.identity.name);
}

/** A value inside a QEMU option list: commas are doubled. */
function qemuOptionValue(value: string): string {
  return value.replaceAll(",", ",,");
}

function configureSmbios(domain: Parameters<Configurator>[0], input: ConversionInput): void {
  const fields = [`type=1`, `uuid=${qemuOptionValue(firmwareUuidOf(input))}`];
  const serial = input.spec.domain.firmware?.serial;
  if (serial) fields.push(`serial=${qemuOptionValue(serial)}`);
  domain.qemuCommandline = {
    ...domain.qemuCommandline,
    args: [...(domain.qemuCommandline?.args ?? []), "-smbios", fields.join(",")],
  };
}

function configureBootloader(domain: Parameters<Configurator>[0], input: ConversionInput): void {
  const bootloader = input.spec.domain.firmware?.bootloader;
  if (bootloader?.efi !== undefined) {
    if (!input.options.efiFirmwareAvailable) {
      throw new VmiConversionError(
        "UnsupportedFirmware",
        "EFI boot needs OVMF (UEFI firmware for QEMU, Debian package ovmf), which this node does not have",
      );
    }
    // libvirt picks the OVMF build (firmware auto-selection). Secure boot (KubeVirt's default) needs
    // SMM; which build is chosen cannot be pinned yet: the model lacks <os><firmware><feature>.
    domain.os.firmware = "efi";
    if (bootloader.efi.secureBoot !== false) domain.features = { ...domain.features, smm: true };
    return;
  }
  if (bootloader?.bios?.useSerial) domain.os.biosUseSerial = true;
}

function configureKernelBoot(domain: Parameters<Configurator>[0], input: ConversionInput): void {
  const wanted = input.spec.domain.firmware?.kernelBoot?.container !== undefined;
  const prepared = input.prepared.kernelBoot;
  if (!wanted) return;
  if (prepared === undefined) {
    throw new VmiConversionError(
      "InvalidSpec",
      "kernelBoot.container is set but its kernel was not prepared",
    );
  }
  domain.os.kernel = prepared.kernel;
  if (prepared.initrd !== undefined) domain.os.initrd = prepared.initrd;
  if (prepared.cmdline !== undefined) domain.os.cmdline = prepared.cmdline;
}

export const configureFirmware: Configurator = (domain, input) => {
  domain.uuid = domainUuidOf(input.identity.uid);
  configureSmbios(domain, input);
  configureBootloader(domain, input);
  configureKernelBoot(domain, input);
};

/** Whether OVMF is installed where libvirt's firmware auto-selection looks for it. */
export async function efiFirmwareInstalled(): Promise<boolean> {
  for (const path of [
    "/usr/share/qemu/firmware/40-edk2-x86_64-secure-enrolled.json",
    "/usr/share/OVMF/OVMF_CODE.fd",
  ]) {
    if (
      await access(path).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}
