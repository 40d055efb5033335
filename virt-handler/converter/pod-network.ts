// The VMI's interfaces on the pod network. masquerade and bridge live in the launcher pod's network
// namespace: the NIC is a tap libvirt opens by name (`type='ethernet'`, `managed='no'`), which
// virt-handler makes on the node before the start and moves into the pod right after it (network/;
// for bridge it also sets the guest's MAC to the pod's). passt (`passtBinding`, or the `passt`
// binding plugin) is a NIC QEMU joins to the passt the launcher runs in the pod (passt-nic.ts), on
// the domain's command line. There is no user-mode networking: the discontinued slirp is refused.
import type { Interface, Network } from "../../api/index.js";
import type { NetworkInterface } from "../../libvirt/domain-xml/index.js";
import { guestMacAddress } from "../network/guest-mac.js";
import { nodeTapName } from "../network/tap-name.js";
import { bootOrderOf } from "./boot-order.js";
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";
import { PASST_FIRST_SLOT, passtNicArgs } from "./passt-nic.js";

const POD_NETWORK_BINDINGS = ["masquerade", "bridge"] as const;
/** Refused: sriov is not implemented; slirp, macvtap and the core passt were discontinued in KubeVirt v1.3. */
const OTHER_BINDINGS = ["sriov", "macvtap", "passt", "slirp"] as const;
/** The binding plugin kubevirt-ts implements itself (KubeVirt's, before passt became a core binding). */
export const PASST_PLUGIN = "passt";
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
      other === "sriov"
        ? `interface ${iface.name}: the sriov binding is not supported yet`
        : `interface ${iface.name}: the ${other} binding was discontinued in KubeVirt v1.3`,
    );
  }
  if (iface.binding !== undefined && iface.binding.name !== PASST_PLUGIN) {
    throw new VmiConversionError(
      "UnsupportedInterface",
      `interface ${iface.name}: the binding plugin ${iface.binding.name} is not supported (only ${PASST_PLUGIN})`,
    );
  }
  if (usesPasst(iface)) return;
  if (!POD_NETWORK_BINDINGS.some((binding) => iface[binding] !== undefined)) {
    throw new VmiConversionError(
      "InvalidSpec",
      `interface ${iface.name} has no binding (masquerade or bridge)`,
    );
  }
}

/** passtBinding, or the passt binding plugin: the same NIC and the same passt in the pod. */
export function usesPasst(iface: Pick<Interface, "passtBinding" | "binding">): boolean {
  return iface.passtBinding !== undefined || iface.binding?.name === PASST_PLUGIN;
}

function passtArgs(
  iface: Interface,
  mac: string,
  socketPath: string | undefined,
  placement: { rootBus: "pcie.0" | "pci.0"; slot: number },
): string[] {
  if (socketPath === undefined) {
    throw new VmiConversionError(
      "UnsupportedInterface",
      `interface ${iface.name}: passt needs the VM's directory`,
    );
  }
  if (modelOf(iface) !== "virtio") {
    throw new VmiConversionError(
      "InvalidSpec",
      `interface ${iface.name}: passt needs model virtio, not ${iface.model}`,
    );
  }
  // QEMU's NIC options have no link state; a down link would need the monitor after every start.
  if (iface.state === "down") {
    throw new VmiConversionError(
      "UnsupportedInterface",
      `interface ${iface.name}: state down is not supported with passt yet`,
    );
  }
  return passtNicArgs({
    interfaceName: iface.name,
    mac,
    socketPath,
    ...placement,
    ...(iface.bootOrder !== undefined
      ? { bootOrder: bootOrderOf(`interface ${iface.name}`, iface.bootOrder) }
      : {}),
  });
}

export const configurePodNetwork: Configurator = (domain, { spec, identity, options }) => {
  const interfaces: NetworkInterface[] = [];
  const commandline: string[] = [];
  for (const iface of spec.domain.devices.interfaces ?? []) {
    if (iface.state === "absent") continue;
    checkSupported(
      iface,
      spec.networks?.find((network) => network.name === iface.name),
    );
    const mac = guestMacAddress(iface, identity.uid);
    if (mac instanceof Error) throw new VmiConversionError("InvalidSpec", mac.message);
    if (usesPasst(iface)) {
      const rootBus = (domain.os.machine ?? "q35").includes("q35") ? "pcie.0" : "pci.0";
      const slot = PASST_FIRST_SLOT - commandline.filter((arg) => arg === "-device").length;
      commandline.push(...passtArgs(iface, mac, options.passtSocketPath, { rootBus, slot }));
      continue;
    }
    const common = { mac, model: modelOf(iface), alias: `ua-${iface.name}` };
    const nic: NetworkInterface = {
      type: "ethernet",
      ...common,
      targetDev: nodeTapName(identity.uid, iface.name),
      targetManaged: false,
    };
    if (iface.state === "down") nic.linkState = "down";
    if (iface.bootOrder !== undefined)
      nic.bootOrder = bootOrderOf(`interface ${iface.name}`, iface.bootOrder);
    interfaces.push(nic);
  }
  if (interfaces.length > 0)
    domain.devices.interfaces = [...(domain.devices.interfaces ?? []), ...interfaces];
  if (commandline.length > 0) {
    domain.qemuCommandline = {
      ...domain.qemuCommandline,
      args: [...(domain.qemuCommandline?.args ?? []), ...commandline],
    };
  }
};
