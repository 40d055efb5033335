import { formatIpv4, hostRange, type Ipv4Cidr, parseIpv4 } from "./ipv4.js";

/**
 * Hands out the addresses of a CIDR one by one, round-robin after the last one given (as CNI's
 * host-local IPAM does), so a freed address is not reused at once by the next pod.
 */
export class AddressPool {
  readonly #first: number;
  readonly #last: number;
  readonly #used = new Set<number>();
  #cursor: number;

  /** `reserved` addresses (e.g. the bridge's) are never handed out. */
  constructor(cidr: Ipv4Cidr, reserved: readonly string[] = []) {
    const range = hostRange(cidr);
    this.#first = range.first;
    this.#last = range.last;
    for (const address of reserved) this.#used.add(parseIpv4(address));
    this.#cursor = this.#first - 1;
  }

  /** Marks an address as taken (adopted pods keep theirs). */
  claim(address: string): void {
    this.#used.add(parseIpv4(address));
  }

  release(address: string): void {
    this.#used.delete(parseIpv4(address));
  }

  allocate(): string {
    const size = this.#last - this.#first + 1;
    for (let step = 1; step <= size; step++) {
      const candidate = this.#first + ((this.#cursor - this.#first + step + size) % size);
      if (!this.#used.has(candidate)) {
        this.#used.add(candidate);
        this.#cursor = candidate;
        return formatIpv4(candidate);
      }
    }
    throw new Error(`no free address left in ${formatIpv4(this.#first)}-${formatIpv4(this.#last)}`);
  }
}
