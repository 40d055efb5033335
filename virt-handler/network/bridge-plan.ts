// KubeVirt's bridge binding on the pod network, as data: the guest takes the pod's own address
// (and, unless the interface sets a MAC, the pod interface's MAC), which the pod gives up: its
// interface becomes a port of the in-pod bridge, renamed eth0-nic. The launcher answers the guest's DHCP from a link-local server
// address on the bridge. Pure: pod-network-setup.ts applies it (KubeVirt's netpod bridgeBindingSpec).
import { INFINITE_LEASE_SECONDS, POD_BRIDGE, prefixMask } from "./masquerade-plan.js";

/** KubeVirt's fake DHCP server address on the bridge of the primary interface. */
export const BRIDGE_DHCP_SERVER = "169.254.75.10/32";
/** The pod's interface once it is a port of the bridge. */
export const POD_NIC = "eth0-nic";

/** What the pod's interface had before the guest took it (cached in the VM's directory). */
export interface PodInterfaceFacts {
  mac: string;
  /** e.g. "10.244.0.7" and 24. */
  address: string;
  prefixLength: number;
  mtu: number;
  /** Routes other than the connected one: the default route's gateway, and static routes. */
  gateway?: string;
  routes: { destination: string; gateway: string }[];
}

export interface BridgeInputs {
  pod: PodInterfaceFacts;
  guestMac: string;
  hostname: string;
  dnsServers: readonly string[];
  searchDomains: readonly string[];
  /** The interface's dhcpOptions as udhcpd lines (dhcp-options.ts). */
  extraOptions?: readonly string[];
}

export function bridgeDhcpConfig(inputs: BridgeInputs): string {
  const { pod } = inputs;
  const lines = [
    `interface ${POD_BRIDGE}`,
    `start ${pod.address}`,
    `end ${pod.address}`,
    "max_leases 1",
    `static_lease ${inputs.guestMac} ${pod.address}`,
    `opt subnet ${prefixMask(pod.prefixLength)}`,
    `opt mtu ${pod.mtu}`,
    `opt hostname ${inputs.hostname}`,
    `opt lease ${INFINITE_LEASE_SECONDS}`,
    "lease_file udhcpd.leases",
    "pidfile udhcpd.pid",
  ];
  if (pod.gateway) lines.push(`opt router ${pod.gateway}`);
  // Option 121 (classless static routes), as KubeVirt passes the pod's routes on.
  if (pod.routes.length > 0) {
    lines.push(
      `opt staticroutes ${pod.routes.map((route) => `${route.destination} ${route.gateway}`).join(" ")}`,
    );
  }
  if (inputs.dnsServers.length > 0) lines.push(`opt dns ${inputs.dnsServers.join(" ")}`);
  if (inputs.searchDomains.length > 0) lines.push(`opt search ${inputs.searchDomains.join(" ")}`);
  lines.push(...(inputs.extraOptions ?? []));
  return `${lines.join("\n")}\n`;
}

/**
 * A MAC for the pod's interface once the guest has taken its own: locally administered, derived
 * from the original so that it is stable across restarts, and never equal to it (a bridge port's
 * own address is delivered to the bridge, never forwarded to the guest).
 */
export function podNicMac(original: string): string {
  const bytes = original.split(":").map((part) => Number.parseInt(part, 16));
  bytes[0] = ((bytes[0] ?? 0) | 0x02) & 0xfe;
  bytes[5] = ((bytes[5] ?? 0) ^ 0x5a) & 0xff;
  const mac = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join(":");
  return mac === original ? mac.replace(/^../, "06") : mac;
}
