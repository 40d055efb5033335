// Network, for now: an interface on the pod network (masquerade, bridge or the old slirp binding) becomes
// QEMU's user-mode networking (`<interface type='user'>`): outbound only, nothing to set up on the host.
// Joining the launcher pod's network namespace (passt or a tap there) will be another configurator that
// takes the place of this one; the MAC, model and alias rules below are meant to be shared with it.
import { createHash } from "node:crypto";
import type { Interface, Network } from "../../api/index.js";
import type { NetworkInterface } from "../../libvirt/domain-xml/index.js";
import { bootOrderOf } from "./boot-order.js";
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

const USER_MODE_BINDINGS = ["masquerade", "bridge", "slirp"] as const;
const OTHER_BINDINGS = ["sriov", "passtBinding", "macvtap", "passt", "binding"] as const;
const NIC_MODELS = ["e1000", "e1000e", "igb", "ne2k_pci", "pcnet", "rtl8139", "virtio"] as const;
const MAC_PATTERN = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i;

/**
 * A MAC that stays the same for the VMI's interface: six bytes of sha256(uid/name), marked locally
 * administered and unicast, so it never clashes with a vendor's address.
 */
export function stableMacAddress(vmiUid: string, interfaceName: string): string {
  const bytes = createHash("sha256").update(`${vmiUid}/${interfaceName}`).digest().subarray(0, 6);
  bytes[0] = ((bytes[0] ?? 0) & 0xfc) | 0x02;
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join(":");
}

function macOf(iface: Interface, vmiUid: string): string {
  if (iface.macAddress === undefined) return stableMacAddress(vmiUid, iface.name);
  if (!MAC_PATTERN.test(iface.macAddress)) {
    throw new VmiConversionError(
      "InvalidSpec",
      `interface ${iface.name}: ${iface.macAddress} is not a MAC address`,
    );
  }
  return iface.macAddress.toLowerCase().replaceAll("-", ":");
}

function modelOf(iface: Interface): string {
  const model = iface.model || "virtio";
  if (!NIC_MODELS.some((known) => known === model)) {
    throw new VmiConversionError("InvalidSpec", `interface ${iface.name}: unknown model ${model}`);
  }
  return model;
}

/** Refuses what user-mode networking cannot do: other networks, other bindings. */
function checkUserModeCapable(iface: Interface, network: Network | undefined): void {
  if (network === undefined) {
    throw new VmiConversionError("InvalidSpec", `interface ${iface.name} names no network`);
  }
  if (network.pod === undefined) {
    throw new VmiConversionError(
      "UnsupportedInterface",
      `interface ${iface.name}: only the pod network is supported yet, not multus network ${network.multus?.networkName ?? network.name}`,
    );
  }
  const other = OTHER_BINDINGS.find((binding) => iface[binding] !== undefined);
  if (other !== undefined) {
    throw new VmiConversionError(
      "UnsupportedInterface",
      `interface ${iface.name}: the ${other} binding is not supported yet`,
    );
  }
  if (!USER_MODE_BINDINGS.some((binding) => iface[binding] !== undefined)) {
    throw new VmiConversionError(
      "InvalidSpec",
      `interface ${iface.name} has no binding (masquerade or bridge)`,
    );
  }
}

export const configurePodNetworkUserMode: Configurator = (domain, { spec, identity }) => {
  const interfaces: NetworkInterface[] = [];
  for (const iface of spec.domain.devices.interfaces ?? []) {
    if (iface.state === "absent") continue;
    checkUserModeCapable(
      iface,
      spec.networks?.find((network) => network.name === iface.name),
    );
    const nic: NetworkInterface = {
      type: "user",
      mac: macOf(iface, identity.uid),
      model: modelOf(iface),
      alias: `ua-${iface.name}`,
    };
    if (iface.state === "down") nic.linkState = "down";
    if (iface.bootOrder !== undefined)
      nic.bootOrder = bootOrderOf(`interface ${iface.name}`, iface.bootOrder);
    interfaces.push(nic);
  }
  if (interfaces.length > 0)
    domain.devices.interfaces = [...(domain.devices.interfaces ?? []), ...interfaces];
};
