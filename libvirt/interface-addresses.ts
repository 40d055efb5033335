import koffi from "koffi";
import { check } from "./errors.js";
import { decodeStruct, native, type Pointer, takePointerArray, types } from "./ffi.js";
import { IPAddressType } from "./flags.js";

export interface IPAddress {
  readonly type: IPAddressType;
  readonly address: string;
  readonly prefix: number;
}

/** One guest interface as `virDomainInterfaceAddresses` reports it. */
export interface InterfaceAddresses {
  readonly name: string;
  /** The MAC address; null when the source does not know it. */
  readonly hardwareAddress: string | null;
  readonly addresses: readonly IPAddress[];
}

function decodeAddresses(pointer: unknown, count: number): IPAddress[] {
  if (typeof pointer !== "bigint" || count === 0) return [];
  const raw = koffi.decode(pointer, koffi.array(types.ipAddress, count)) as Record<string, unknown>[];
  return raw.map((entry) => ({
    type: entry.type === IPAddressType.IPv6 ? IPAddressType.IPv6 : IPAddressType.IPv4,
    address: String(entry.addr ?? ""),
    prefix: Number(entry.prefix ?? 0),
  }));
}

function decodeInterface(pointer: Pointer): InterfaceAddresses {
  const raw = decodeStruct(pointer, types.interface);
  return {
    name: String(raw.name ?? ""),
    hardwareAddress: typeof raw.hwaddr === "string" ? raw.hwaddr : null,
    addresses: decodeAddresses(raw.addrs, Number(raw.naddrs ?? 0)),
  };
}

/**
 * Calls virDomainInterfaceAddresses and copies the result out of libvirt's memory (each interface is
 * freed with virDomainInterfaceFree, then the array). Throws LibvirtError read on this thread.
 */
export function queryInterfaceAddresses(domain: Pointer, source: number): InterfaceAddresses[] {
  const out: [Pointer | null] = [null];
  const count = check("virDomainInterfaceAddresses", native.domainInterfaceAddresses(domain, out, source, 0));
  const pointers = takePointerArray(out[0], count);
  try {
    return pointers.map(decodeInterface);
  } finally {
    for (const pointer of pointers) native.domainInterfaceFree(pointer);
  }
}
