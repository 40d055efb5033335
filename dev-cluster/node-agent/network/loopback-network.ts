import { AddressPool } from "./address-pool.js";
import { parseCidr } from "./ipv4.js";
import type { PodNetwork, PodNetworkAttachment } from "./pod-network.js";

/**
 * Where network namespaces cannot be made (not root, no `ip`): every pod gets its own address
 * of 127.0.0.0/8 (all of it reaches the loopback interface on Linux without configuration), so
 * replicas binding their pod IP still do not collide. There is no isolation.
 */
export class LoopbackPodNetwork implements PodNetwork {
  readonly mode = "loopback" as const;
  readonly hostIP = "127.0.0.1";
  readonly #pool: AddressPool;

  constructor(cidr: string) {
    const parsed = parseCidr(cidr);
    if (!cidr.startsWith("127.")) throw new Error(`the loopback pod range ${cidr} is not in 127.0.0.0/8`);
    this.#pool = new AddressPool(parsed, ["127.0.0.1"]);
  }

  async attach(): Promise<PodNetworkAttachment> {
    return { mode: "loopback", podIP: this.#pool.allocate(), hostIP: this.hostIP };
  }

  async adopt(attachment: PodNetworkAttachment): Promise<boolean> {
    if (attachment.mode !== "loopback") return false;
    this.#pool.claim(attachment.podIP);
    return true;
  }

  async detach(attachment: PodNetworkAttachment): Promise<void> {
    if (attachment.mode === "loopback") this.#pool.release(attachment.podIP);
  }

  async removeLeftovers(): Promise<string[]> {
    return [];
  }

  execPrefix(): string[] {
    return [];
  }

  async close(): Promise<void> {}
}
