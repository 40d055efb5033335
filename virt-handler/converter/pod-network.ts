// The VMI's interfaces on the pod network. masquerade and bridge live in the launcher pod's network
// namespace: the NIC is a tap libvirt opens by name (`type='ethernet'`, `managed='no'`), which
// virt-handler makes on the node before the start and moves into the pod right after it (network/;
// for bridge it also sets the guest's MAC to the pod's). The deprecated slirp is QEMU's user-mode
// networking (`<interface type='user'>`, outbound only, from the node's namespace).
import type { Interface, Network } from "../../api/index.js";
import type { NetworkInterface } from "../../libvirt/domain-xml/index.js";
import { guestMacAddress } from "../network/guest-mac.js";
import { nodeTapName } from "../network/tap-name.js";
import { bootOrderOf } from "./boot-order.js";
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

const POD_NETWORK_BINDINGS = ["masquerade", "bridge", "slirp"] as const;
const OTHER_BINDINGS = ["sriov", "passtBinding", "macvtap", "passt", "binding"] as const;
const NIC_MODELS = ["e1000", "e1000e", "igb", "ne2k_pci", "pcnet", "rtl8139", "virtio"] as const;

function modelOf(iface: Interface): string {
  const model = iface.model || "virtio";
  if (!NIC_MODELS.some((known) => known === model)) {
    throw new VmiConversionError("InvalidSpec", `interface ${iface.name}: unknown model ${model}`);
  }
  return model;
}

/** Refuses what is not built yet: other networks, other bindings. */
function checkSupported(iface: Interface, network: Network | undefined): void {
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
  if (!POD_NETWORK_BINDINGS.some((binding) => iface[binding] !== undefined)) {
    throw new VmiConversionError(
      "InvalidSpec",
      `interface ${iface.name} has no binding (masquerade or bridge)`,
    );
  }
}

export const configurePodNetwork: Configurator = (domain, { spec, identity }) => {
  const interfaces: NetworkInterface[] = [];
  for (const iface of spec.domain.devices.interfaces ?? []) {
    if (iface.state === "absent") continue;
    checkSupported(
      iface,
      spec.networks?.find((network) => network.name === iface.name),
    );
    const mac = guestMacAddress(iface, identity.uid);
    if (mac instanceof Error) throw new VmiConversionError("InvalidSpec", mac.message);
    const common = { mac, model: modelOf(iface), alias: `ua-${iface.name}` };
    const nic: NetworkInterface =
      iface.masquerade !== undefined || iface.bridge !== undefined
        ? {
            type: "ethernet",
            ...common,
            targetDev: nodeTapName(identity.uid, iface.name),
            targetManaged: false,
          }
        : { type: "user", ...common };
    if (iface.state === "down") nic.linkState = "down";
    if (iface.bootOrder !== undefined)
      nic.bootOrder = bootOrderOf(`interface ${iface.name}`, iface.bootOrder);
    interfaces.push(nic);
  }
  if (interfaces.length > 0)
    domain.devices.interfaces = [...(domain.devices.interfaces ?? []), ...interfaces];
};
