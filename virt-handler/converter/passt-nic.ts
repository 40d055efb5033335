// A passt interface's NIC in the domain. libvirt 9.0 knows passt only as a backend it starts itself,
// in its own network namespace, and has no interface type that joins QEMU to a UNIX socket someone
// else listens on; QEMU 7.2 does (`-netdev stream`). So the NIC is two QEMU arguments in the
// domain's <qemu:commandline>, built only from what the converter generates: the socket in the VM's
// directory, the MAC (checked), the boot index (a number) and ids from the interface name (the
// alias charset, checked again here). libvirt does not list such a NIC among the domain's
// interfaces; passtNicsOf reads it back from the arguments, for the VMI's status.
import type { DomainDefinition, NetworkInterface } from "../../libvirt/domain-xml/index.js";

const DEVICE_PREFIX = "passt-";
const NETDEV_PREFIX = "hostpasst-";
const NAME = /^[A-Za-z0-9_-]{1,63}$/;
const MAC = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/;

export interface PasstNic {
  interfaceName: string;
  mac: string;
  socketPath: string;
  bootOrder?: number;
  /** The machine's root bus: `pcie.0` (q35) or `pci.0` (i440fx). */
  rootBus: "pcie.0" | "pci.0";
  /** The NIC's slot on it, counted down from PASST_FIRST_SLOT (one a passt NIC). */
  slot: number;
}

/**
 * libvirt does not know of a device it did not define, so the NIC takes a slot of the root bus
 * libvirt never hands out: it fills slots from the low end (VGA at 1, root ports eight to a slot
 * from 2) and keeps 0x1f for the chipset, so 0x1e and below are free unless a domain had some two
 * hundred PCIe devices. Without an address QEMU would take the first free slot, which libvirt
 * has given to another device.
 */
export const PASST_FIRST_SLOT = 0x1e;

/** `-netdev stream,...` and `-device virtio-net-pci,...` for one NIC; throws on a value it cannot carry. */
export function passtNicArgs(nic: PasstNic): string[] {
  if (!NAME.test(nic.interfaceName))
    throw new Error(`interface name ${nic.interfaceName} cannot be a QEMU id`);
  if (!MAC.test(nic.mac)) throw new Error(`${nic.mac} is not a lower-case MAC address`);
  // QEMU's option syntax: a comma in a value is written twice.
  const path = nic.socketPath.replaceAll(",", ",,");
  const netdev = `${NETDEV_PREFIX}${nic.interfaceName}`;
  if (!Number.isInteger(nic.slot) || nic.slot < 0x10 || nic.slot > PASST_FIRST_SLOT) {
    throw new Error(`slot ${nic.slot} is outside the range kept for passt NICs`);
  }
  const device = [
    `virtio-net-pci`,
    `netdev=${netdev}`,
    `id=${DEVICE_PREFIX}${nic.interfaceName}`,
    `mac=${nic.mac}`,
    `bus=${nic.rootBus}`,
    `addr=0x${nic.slot.toString(16)}`,
  ];
  if (nic.bootOrder !== undefined) {
    if (!Number.isInteger(nic.bootOrder) || nic.bootOrder < 1) throw new Error(`boot order ${nic.bootOrder}`);
    device.push(`bootindex=${nic.bootOrder}`);
  }
  return [
    "-netdev",
    `stream,id=${netdev},server=off,addr.type=unix,addr.path=${path}`,
    "-device",
    device.join(","),
  ];
}

/** The passt NICs a domain's <qemu:commandline> carries, as interfaces (alias "ua-<interface>"). */
export function passtNicsOf(definition: Pick<DomainDefinition, "qemuCommandline">): NetworkInterface[] {
  const args = definition.qemuCommandline?.args ?? [];
  const nics: NetworkInterface[] = [];
  args.forEach((arg, position) => {
    if (position === 0 || args[position - 1] !== "-device" || !arg.startsWith("virtio-net-pci,")) return;
    const options = new Map(
      arg
        .split(",")
        .slice(1)
        .map((option) => option.split("=", 2) as [string, string | undefined]),
    );
    const id = options.get("id");
    const netdev = options.get("netdev");
    if (!id?.startsWith(DEVICE_PREFIX) || netdev !== `${NETDEV_PREFIX}${id.slice(DEVICE_PREFIX.length)}`)
      return;
    const nic: NetworkInterface = {
      type: "user",
      backend: { type: "passt" },
      model: "virtio",
      alias: `ua-${id.slice(DEVICE_PREFIX.length)}`,
    };
    const mac = options.get("mac");
    if (mac !== undefined) nic.mac = mac;
    nics.push(nic);
  });
  return nics;
}
