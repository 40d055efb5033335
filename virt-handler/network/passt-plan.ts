// KubeVirt's passt binding as data: the command line of the passt that serves one VM's pod
// interface. passt runs in the launcher pod's network namespace (virt-handler starts it there,
// passt-process.ts), hands the guest the pod's own address and routes by its DHCP, and carries the
// guest's traffic over the pod's sockets, so the VM is reached at, and leaves from, the pod's IP.
// QEMU connects to it over the UNIX socket in the VM's directory (converter/passt-nic.ts).
//
// Only what virt-handler generates reaches the command line: paths in the VM's directory, the pod's
// MTU, and port numbers checked here to be integers of 1-65535. Nothing else of the VMI does.

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
/** The launcher pod's interface on the pod network. */
const POD_INTERFACE = "eth0";
/** passt's port specifier for "every port": all non-ephemeral ports it can bind. */
const ALL_PORTS = "all";
/** The unprivileged user passt drops to (its own default, named by number: no lookup on the node). */
export const PASST_UID = 65534;
export const PASST_USER = `${PASST_UID}:${PASST_UID}`;
/**
 * Sockets passt opens to forward every port of both protocols (1-32767 each, the kernel's default
 * ephemeral range excluded, plus its own handful): it needs an open-files limit of at least this.
 */
export const ALL_PORTS_OPEN_FILES = 2 * 32_767 + 256;

export interface PasstPort {
  protocol: "tcp" | "udp";
  port: number;
}

export interface PasstInputs {
  interfaceName: string;
  /** The interface's ports; none: every port of both protocols is forwarded, as KubeVirt does. */
  ports: readonly PasstPort[];
  /** The pod interface's MTU, which the guest is offered. */
  mtu: number;
  /**
   * The router the guest is offered: the pod's default gateway, or (pods of the dev cluster have
   * no default route, and passt needs one) the first address of the pod's subnet. passt answers
   * for it itself and maps it to the pod's loopback, as it does by default.
   */
  gateway: string;
  socketPath: string;
}

export class PasstPlanError extends Error {
  override readonly name = "PasstPlanError";
  readonly reason = "InvalidSpec";
}

/**
 * passt's arguments, for the launcher that runs it as its container's process: in the foreground
 * (its log is the container's), for the pod's lifetime, taking QEMU again should it reconnect.
 */
export function passtArguments(inputs: PasstInputs): string[] {
  if (!Number.isInteger(inputs.mtu) || inputs.mtu < 68 || inputs.mtu > 65520) {
    throw new PasstPlanError(`the pod's MTU ${inputs.mtu} is out of passt's range`);
  }
  if (!IPV4.test(inputs.gateway))
    throw new PasstPlanError(`the gateway ${inputs.gateway} is not an IPv4 address`);
  const args = [
    "--foreground",
    "--runas",
    PASST_USER,
    "--socket",
    inputs.socketPath,
    "--mtu",
    String(inputs.mtu),
    // The pod's interface, named: passt would otherwise look for the one with a default route.
    "--interface",
    POD_INTERFACE,
    "--gateway",
    inputs.gateway,
    // The gateway is the node, as it is for the pod, not the pod's own loopback (passt's default).
    "--no-map-gw",
    // IPv4 only: the pod network here has no IPv6, and passt refuses an interface without a route for it.
    "--ipv4-only",
  ];
  // DNS: passt offers the servers and search domains of the resolv.conf it reads, the launcher
  // pod's own (its process sees the pod's file).
  return [...args, ...portArguments(inputs)];
}

/** -t/-u per protocol: the listed ports, "none" for a protocol without any, "all" when none is listed. */
export function portArguments(inputs: Pick<PasstInputs, "interfaceName" | "ports">): string[] {
  if (inputs.ports.length === 0) return ["--tcp-ports", ALL_PORTS, "--udp-ports", ALL_PORTS];
  const args: string[] = [];
  for (const protocol of ["tcp", "udp"] as const) {
    const ports = [
      ...new Set(inputs.ports.filter((port) => port.protocol === protocol).map((port) => port.port)),
    ];
    for (const port of ports) {
      if (!Number.isInteger(port) || port < 1 || port > 65535) {
        throw new PasstPlanError(`interface ${inputs.interfaceName}: port ${port} is not in 1-65535`);
      }
    }
    args.push(`--${protocol}-ports`, ports.length > 0 ? ports.sort((a, b) => a - b).join(",") : "none");
  }
  return args;
}

/** The first host address of an IPv4 subnet, or the last one when that is the pod's own address. */
export function subnetGateway(address: string, prefixLength: number): string {
  const value = address.split(".").reduce((sum, part) => sum * 256 + Number(part), 0);
  const size = 2 ** (32 - prefixLength);
  const network = value - (value % size);
  const first = network + 1;
  const chosen = first === value ? network + size - 2 : first;
  return [24, 16, 8, 0].map((shift) => Math.floor(chosen / 2 ** shift) % 256).join(".");
}

/** Whether passt must bind every port (no port listed): it needs ALL_PORTS_OPEN_FILES then. */
export function forwardsAllPorts(ports: readonly PasstPort[]): boolean {
  return ports.length === 0;
}
