import { isIPv4 } from "node:net";

/** An IPv4 CIDR as a contiguous block of addresses held as unsigned 32-bit numbers. */
export interface Ipv4Range {
  cidr: string;
  /** The network address. */
  base: number;
  size: number;
}

/** An inclusive range of ports, e.g. kube-apiserver's `--service-node-port-range`. */
export interface PortRange {
  first: number;
  last: number;
}

export const DEFAULT_SERVICE_CIDR = "10.96.0.0/12";
export const DEFAULT_NODE_PORT_RANGE: PortRange = { first: 30000, last: 32767 };

export function ipv4ToNumber(address: string): number | undefined {
  if (!isIPv4(address)) return undefined;
  return address.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
}

export function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** Parses `a.b.c.d/n`; throws naming the CIDR when it is not one (or too small to hold services). */
export function parseIpv4Cidr(cidr: string): Ipv4Range {
  const [address = "", bitsText = ""] = cidr.split("/");
  const bits = Number(bitsText);
  const start = ipv4ToNumber(address);
  if (start === undefined || !/^\d{1,2}$/.test(bitsText) || bits > 30) {
    throw new Error(`the service CIDR "${cidr}" is not an IPv4 CIDR with a prefix of at most /30`);
  }
  const size = 2 ** (32 - bits);
  if (start % size !== 0) throw new Error(`the service CIDR "${cidr}" has host bits set`);
  return { cidr, base: start, size };
}

/** The address of the `kubernetes` Service: the first of the service range, as kube reserves it. */
export function kubernetesServiceIp(serviceCidr: string): string {
  return numberToIpv4(parseIpv4Cidr(serviceCidr).base + 1);
}

/** The cluster DNS Service's address: the tenth of the service range, as kubeadm picks it. */
export function clusterDnsIp(serviceCidr: string): string {
  return numberToIpv4(parseIpv4Cidr(serviceCidr).base + 10);
}

/**
 * Like kube's allocators (ServiceIPStaticSubrange), a range is split into a small lower band that
 * clients pick addresses or ports from by hand (10.96.0.10 for DNS, 30080, ...) and the rest,
 * which dynamic allocation tries first, so hand-picked values rarely collide with allocated ones.
 * Answers the size of the lower band for a range of `size` values.
 */
export function staticBandSize(size: number, divisor: number, max: number): number {
  return Math.min(Math.max(16, Math.floor(size / divisor)), max);
}

/**
 * The first value in `first..last` that `used` does not hold, trying the values above the
 * static band before those in it; undefined when all are taken.
 */
export function firstFree(
  first: number,
  last: number,
  band: number,
  used: ReadonlySet<number>,
): number | undefined {
  const dynamicStart = Math.min(first + band, last + 1);
  for (let value = dynamicStart; value <= last; value++) if (!used.has(value)) return value;
  for (let value = first; value < dynamicStart; value++) if (!used.has(value)) return value;
  return undefined;
}
