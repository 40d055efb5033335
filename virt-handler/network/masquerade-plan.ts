// KubeVirt's masquerade binding, as data: the in-pod bridge the guest's tap joins, the NAT rules that
// forward the pod's traffic to the guest and let the guest out through the pod's address, and the DHCP
// answer the guest gets. Pure: pod-network-setup.ts applies it inside the launcher pod's namespace.
// Names and addresses are KubeVirt's (pkg/network/setup/netpod, pkg/network/driver/nft).

/** The launcher pod's interface on the pod network. */
export const POD_INTERFACE = "eth0";
/** The in-pod bridge of the primary network, and the tap the guest's NIC is, once in the pod. */
export const POD_BRIDGE = "k6t-eth0";
export const POD_TAP = "tap0";
/** KubeVirt's fixed bridge MAC: the guest sees its gateway at the same address in every VM. */
export const BRIDGE_MAC = "02:00:00:00:00:00";
/** KubeVirt's default VM network, its gateway (the bridge) and the guest's address. */
export const DEFAULT_VM_CIDR = "10.0.2.0/24";
/** DHCP's "infinite" lease, as KubeVirt gives it: 999 days. */
export const INFINITE_LEASE_SECONDS = 999 * 24 * 60 * 60;

export interface MasqueradePort {
  protocol: "tcp" | "udp";
  port: number;
}

export interface VmNetwork {
  /** The gateway on the bridge and the guest, with the prefix length. */
  gateway: string;
  guest: string;
  prefixLength: number;
}

export interface MasqueradeInputs {
  /** The VMI interface's name (for messages). */
  interfaceName: string;
  guestMac: string;
  /** The interface's `ports`; empty: every port is forwarded. */
  ports: readonly MasqueradePort[];
  /** `networks[].pod.vmNetworkCIDR`, default 10.0.2.0/24. */
  vmNetworkCidr?: string;
  /** The MTU of the pod's interface, which the bridge and the guest take. */
  mtu: number;
  /** The guest's hostname (DHCP option 12). */
  hostname: string;
  /** The pod's DNS servers and search domains (its resolv.conf), for DHCP options 6 and 119. */
  dnsServers: readonly string[];
  searchDomains: readonly string[];
  /** The interface's dhcpOptions as udhcpd lines (dhcp-options.ts). */
  extraOptions?: readonly string[];
}

export interface MasqueradePlan {
  network: VmNetwork;
  /** An nft script that replaces the pod's `ip nat` table as one transaction (idempotent). */
  nftScript: string;
  /** busybox udhcpd's configuration, answering only the guest's MAC on the bridge. */
  dhcpConfig: string;
}

export class MasqueradePlanError extends Error {
  override readonly name = "MasqueradePlanError";
  readonly reason = "InvalidNetworkSpec";
}

/** The gateway is the first host address of the VM network, the guest the second (KubeVirt's rule). */
export function vmNetworkOf(cidr: string = DEFAULT_VM_CIDR): VmNetwork {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  const octets = match?.slice(1, 5).map(Number) ?? [];
  const prefixLength = Number(match?.[5]);
  if (!match || octets.some((octet) => octet > 255) || prefixLength > 32) {
    throw new MasqueradePlanError(`failed to parse VM CIDR: ${cidr}`);
  }
  if (prefixLength > 30) {
    throw new MasqueradePlanError(
      `VM CIDR subnet is too small, at least 2 host addresses are required: ${cidr}`,
    );
  }
  const address = octets.reduce((value, octet) => value * 256 + octet, 0);
  const size = 2 ** (32 - prefixLength);
  const network = address - (address % size);
  return { gateway: formatIpv4(network + 1), guest: formatIpv4(network + 2), prefixLength };
}

export function planMasquerade(inputs: MasqueradeInputs): MasqueradePlan {
  const network = vmNetworkOf(inputs.vmNetworkCidr);
  return {
    network,
    nftScript: natRules(network, inputs.ports),
    dhcpConfig: dhcpConfig(network, inputs),
  };
}

/**
 * KubeVirt's masquerade NAT (family ip): guest traffic leaves as the pod's address; what reaches
 * the pod on eth0 (every port, or only the listed ones) and what the pod sends to its own
 * 127.0.0.1 is sent on to the guest, which sees it come from the gateway. An unlisted port is
 * not forwarded: it ends in the pod, where nothing listens.
 */
function natRules(network: VmNetwork, ports: readonly MasqueradePort[]): string {
  const { guest, gateway } = network;
  const inbound =
    ports.length === 0
      ? [`counter dnat to ${guest}`]
      : ports.map(({ protocol, port }) => `${protocol} dport { ${port} } counter dnat to ${guest}`);
  const postInbound =
    ports.length === 0
      ? [`ip saddr { 127.0.0.1 } counter snat to ${gateway}`]
      : ports.map(
          ({ protocol, port }) =>
            `${protocol} dport ${port} ip saddr { 127.0.0.1 } counter snat to ${gateway}`,
        );
  const localhost =
    ports.length === 0
      ? [`ip daddr { 127.0.0.1 } counter dnat to ${guest}`]
      : ports.map(
          ({ protocol, port }) => `ip daddr { 127.0.0.1 } ${protocol} dport ${port} counter dnat to ${guest}`,
        );
  const chain = (name: string, hook: string | undefined, rules: readonly string[]): string[] => [
    `  chain ${name} {`,
    ...(hook ? [`    ${hook}`] : []),
    ...rules.map((rule) => `    ${rule}`),
    "  }",
  ];
  return [
    // Declaring the table first makes the delete succeed on a first run: the script is idempotent.
    "table ip nat {}",
    "delete table ip nat",
    "table ip nat {",
    ...chain("prerouting", "type nat hook prerouting priority -100;", [
      `iifname "${POD_INTERFACE}" counter jump KUBEVIRT_PREINBOUND`,
    ]),
    ...chain("input", "type nat hook input priority 100;", []),
    ...chain("output", "type nat hook output priority -100;", localhost),
    ...chain("postrouting", "type nat hook postrouting priority 100;", [
      `ip saddr ${guest} counter masquerade`,
      `oifname "${POD_BRIDGE}" counter jump KUBEVIRT_POSTINBOUND`,
    ]),
    ...chain("KUBEVIRT_PREINBOUND", undefined, inbound),
    ...chain("KUBEVIRT_POSTINBOUND", undefined, postInbound),
    "}",
    "",
  ].join("\n");
}

function dhcpConfig(network: VmNetwork, inputs: MasqueradeInputs): string {
  const lines = [
    `interface ${POD_BRIDGE}`,
    `start ${network.guest}`,
    `end ${network.guest}`,
    "max_leases 1",
    `static_lease ${inputs.guestMac} ${network.guest}`,
    `opt subnet ${prefixMask(network.prefixLength)}`,
    `opt router ${network.gateway}`,
    `opt mtu ${inputs.mtu}`,
    `opt hostname ${inputs.hostname}`,
    `opt lease ${INFINITE_LEASE_SECONDS}`,
    // Relative: the launcher runs udhcpd in the volume this file is in (images/virt-launcher.sh).
    "lease_file udhcpd.leases",
    "pidfile udhcpd.pid",
  ];
  if (inputs.dnsServers.length > 0) lines.push(`opt dns ${inputs.dnsServers.join(" ")}`);
  if (inputs.searchDomains.length > 0) {
    // Option 15 is the longest search domain (KubeVirt adds it for Windows), 119 the list.
    const longest = [...inputs.searchDomains].sort((a, b) => b.length - a.length)[0] ?? "";
    lines.push(`opt domain ${longest}`, `opt search ${inputs.searchDomains.join(" ")}`);
  }
  lines.push(...(inputs.extraOptions ?? []));
  return `${lines.join("\n")}\n`;
}

/** A prefix length as a dotted netmask (DHCP option 1). */
export function prefixMask(prefixLength: number): string {
  return formatIpv4(prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0);
}

function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join(".");
}
