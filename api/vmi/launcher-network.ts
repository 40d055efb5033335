/**
 * What virt-controller and virt-handler agree on about a launcher pod's part in the pod network
 * (KubeVirt's launcher serves DHCP to its guest in the same way): virt-controller gives the
 * launcher container its pod's uid, by which virt-handler finds the pod's network namespace on
 * the node, and an emptyDir in which virt-handler leaves the guest's DHCP answer for the launcher
 * to serve (images/virt-launcher.sh).
 */
export const LAUNCHER_NETWORK = {
  /** An environment variable of the launcher container: its own pod's uid (downward API). */
  podUidEnv: "KUBEVIRT_LAUNCHER_POD_UID",
  /** The emptyDir volume, and where the launcher container mounts it. */
  volume: "kubevirt-network",
  mountPath: "/var/run/kubevirt-network",
  /** The busybox udhcpd configuration the launcher waits for in that volume. */
  dhcpConfigFile: "udhcpd.conf",
  /** Or passt's arguments, one a line: the launcher then runs passt in its pod (the passt binding). */
  passtArgsFile: "passt.args",
} as const;

interface NetworkedSpec {
  readonly networks?: readonly { readonly name: string; readonly pod?: object }[];
  readonly domain: {
    readonly devices: {
      readonly interfaces?: readonly {
        readonly name: string;
        readonly masquerade?: object;
        readonly bridge?: object;
        readonly passtBinding?: object;
        readonly binding?: { readonly name: string };
        readonly state?: string;
      }[];
    };
  };
}

/**
 * The name of the VMI's interface on the pod network whose guest the launcher serves (the
 * masquerade and bridge bindings), or undefined: then the launcher pod needs no network volume.
 */
export function launcherServedInterface(spec: NetworkedSpec): string | undefined {
  const podNetworks = new Set(
    (spec.networks ?? []).filter((network) => network.pod !== undefined).map((network) => network.name),
  );
  return (spec.domain.devices.interfaces ?? []).find(
    (iface) =>
      podNetworks.has(iface.name) &&
      (iface.masquerade !== undefined || iface.bridge !== undefined) &&
      iface.state !== "absent",
  )?.name;
}

/**
 * Whether the launcher takes part in the VM's pod network: it serves the guest's DHCP (masquerade,
 * bridge) or runs its passt (the `passtBinding` or the `passt` plugin). Such a launcher carries its
 * pod's uid and the network volume through which virt-handler hands it its part.
 */
export function launcherJoinsPodNetwork(spec: NetworkedSpec): boolean {
  if (launcherServedInterface(spec) !== undefined) return true;
  const podNetworks = new Set(
    (spec.networks ?? []).filter((network) => network.pod !== undefined).map((network) => network.name),
  );
  return (spec.domain.devices.interfaces ?? []).some(
    (iface) =>
      podNetworks.has(iface.name) &&
      iface.state !== "absent" &&
      (iface.passtBinding !== undefined || iface.binding?.name === "passt"),
  );
}
