import { createHash } from "node:crypto";
import type { Interface } from "../../api/index.js";

const MAC_PATTERN = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i;

/**
 * A MAC that stays the same for the VMI's interface: six bytes of sha256(uid/name), marked locally
 * administered and unicast, so it never clashes with a vendor's address.
 */
export function stableMacAddress(vmiUid: string, interfaceName: string): string {
  const bytes = createHash("sha256").update(`${vmiUid}/${interfaceName}`).digest().subarray(0, 6);
  bytes[0] = ((bytes[0] ?? 0) & 0xfc) | 0x02;
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join(":");
}

/**
 * The guest's MAC on an interface: its `macAddress` (normalised), else the stable derived one. The
 * domain's NIC and the DHCP answer use this one function, so they never disagree.
 */
export function guestMacAddress(
  iface: Pick<Interface, "name" | "macAddress">,
  vmiUid: string,
): string | Error {
  if (iface.macAddress === undefined) return stableMacAddress(vmiUid, iface.name);
  if (!MAC_PATTERN.test(iface.macAddress)) {
    return new Error(`interface ${iface.name}: ${iface.macAddress} is not a MAC address`);
  }
  return iface.macAddress.toLowerCase().replaceAll("-", ":");
}
