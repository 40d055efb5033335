import type { Logger } from "pino";
import { BridgePodNetwork } from "./bridge-network.js";
import { ipAvailable } from "./ip-command.js";
import { LoopbackPodNetwork } from "./loopback-network.js";
import type { PodNetwork } from "./pod-network.js";

export interface PodNetworkOptions {
  /** The node bridge, e.g. "kvts0" (at most 15 characters). */
  bridgeName: string;
  /** The pod CIDR; the bridge gets its first address, e.g. "10.244.0.0/24". */
  cidr: string;
  /**
   * auto (default): network namespaces when running as root with `ip` installed, else
   * loopback addresses. netns fails when namespaces cannot be made; loopback never tries.
   */
  mode?: "auto" | "netns" | "loopback";
  /** Addresses for loopback mode (default 127.1.0.0/16). */
  loopbackCidr?: string;
}

export async function createPodNetwork(options: PodNetworkOptions, log: Logger): Promise<PodNetwork> {
  const mode = options.mode ?? "auto";
  const loopback = (): PodNetwork => new LoopbackPodNetwork(options.loopbackCidr ?? "127.1.0.0/16");
  if (mode === "loopback") return loopback();
  const isRoot = process.getuid?.() === 0;
  const hasIp = await ipAvailable();
  if (!isRoot || !hasIp) {
    const reason = isRoot ? "the ip command (iproute2) is missing" : "the agent does not run as root";
    if (mode === "netns") throw new Error(`pod network namespaces cannot be made: ${reason}`);
    log.warn({ reason }, "pods get 127.0.0.0/8 addresses instead of network namespaces");
    return loopback();
  }
  try {
    return await BridgePodNetwork.create({ bridgeName: options.bridgeName, cidr: options.cidr, log });
  } catch (error) {
    if (mode === "netns") throw error;
    log.warn({ err: error }, "cannot set up the node bridge: pods get 127.0.0.0/8 addresses instead");
    return loopback();
  }
}
