import { createHash } from "node:crypto";

/**
 * KubeVirt's stable firmware UUID for a VM: a name-based (version 5, SHA-1) UUID of the VM name
 * in a fixed namespace (`CalculateLegacyUUID` in KubeVirt's VM controller). Using the same
 * derivation keeps a guest's SMBIOS UUID unchanged when its manifest moves between the two.
 */
const FIRMWARE_UUID_NAMESPACE = "6a1a24a1-4061-4607-8bf4-a3963d0c5895";

export function legacyFirmwareUuid(name: string): string {
  const namespaceBytes = Buffer.from(FIRMWARE_UUID_NAMESPACE.replaceAll("-", ""), "hex");
  const digest = createHash("sha1").update(namespaceBytes).update(name, "utf8").digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
