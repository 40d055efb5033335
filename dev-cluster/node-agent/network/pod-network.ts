/**
 * How a pod is connected. The worker asks the node's PodNetwork for an attachment before the
 * first container starts and gives it back when the pod ends; attachments are recorded in the
 * pod's state so that a restarted agent adopts them.
 */
export interface PodNetworkAttachment {
  /** netns: own network namespace on the node bridge; loopback: an address of 127.0.0.0/8; host: hostNetwork. */
  mode: "netns" | "loopback" | "host";
  podIP: string;
  hostIP: string;
  /** The namespace's name under /run/netns (netns mode). */
  netns?: string;
}

export interface PodNetwork {
  readonly mode: "netns" | "loopback";
  /** The node's address as pods see it: the bridge's, or 127.0.0.1. */
  readonly hostIP: string;
  /** Creates the pod's network. */
  attach(podUid: string): Promise<PodNetworkAttachment>;
  /** Takes over an attachment of a previous run; false when it is gone. */
  adopt(attachment: PodNetworkAttachment): Promise<boolean>;
  /** Removes the pod's network; its processes must have ended. */
  detach(attachment: PodNetworkAttachment): Promise<void>;
  /** Removes namespaces and veths of pods other than `keepPodUids` (left by a killed run). */
  removeLeftovers(keepPodUids: ReadonlySet<string>): Promise<string[]>;
  /** The command prefix that runs a program inside the attachment's network. */
  execPrefix(attachment: PodNetworkAttachment): string[];
  /** Removes the node-level parts (the bridge) when `removeBridge`; pods must be detached first. */
  close(removeBridge: boolean): Promise<void>;
}

export function hostNetworkAttachment(network: PodNetwork): PodNetworkAttachment {
  return { mode: "host", podIP: network.hostIP, hostIP: network.hostIP };
}
