/** IPv4 arithmetic for pod CIDRs: addresses as unsigned 32-bit numbers. */

export interface Ipv4Cidr {
  /** The network address, e.g. 10.244.0.0 as a number. */
  network: number;
  prefixLength: number;
  /** The text form, normalised: "10.244.0.0/24". */
  text: string;
}

export function parseIpv4(text: string): number {
  const parts = text.split(".");
  if (parts.length !== 4) throw new Error(`"${text}" is not an IPv4 address`);
  let value = 0;
  for (const part of parts) {
    const octet = Number(part);
    if (!/^\d{1,3}$/.test(part) || octet > 255) throw new Error(`"${text}" is not an IPv4 address`);
    value = value * 256 + octet;
  }
  return value;
}

export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

export function parseCidr(text: string): Ipv4Cidr {
  const [address, prefix] = text.split("/");
  const prefixLength = Number(prefix);
  if (address === undefined || !/^\d{1,2}$/.test(prefix ?? "") || prefixLength > 30) {
    throw new Error(`"${text}" is not an IPv4 CIDR with a prefix of at most /30`);
  }
  const mask = prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0;
  const network = (parseIpv4(address) & mask) >>> 0;
  return { network, prefixLength, text: `${formatIpv4(network)}/${prefixLength}` };
}

/** Usable host addresses: the network and broadcast addresses excluded. */
export function hostRange(cidr: Ipv4Cidr): { first: number; last: number } {
  const size = 2 ** (32 - cidr.prefixLength);
  return { first: cidr.network + 1, last: cidr.network + size - 2 };
}

export function cidrContains(cidr: Ipv4Cidr, address: string): boolean {
  const size = 2 ** (32 - cidr.prefixLength);
  const value = parseIpv4(address);
  return value >= cidr.network && value < cidr.network + size;
}
