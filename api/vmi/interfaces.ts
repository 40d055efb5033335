import { type Static, Type } from "@sinclair/typebox";
import { Int32, Marker, StringEnum } from "../schema/kube-types.js";

/**
 * `spec.domain.devices.interfaces[]`: a guest NIC named after a network, bound by exactly one
 * binding method (bridge, masquerade, sriov, passtBinding, the deprecated slirp/macvtap/passt, or
 * a binding plugin).
 */

export const INTERFACE_BINDINGS = [
  "bridge",
  "masquerade",
  "sriov",
  "passtBinding",
  "slirp",
  "macvtap",
  "passt",
] as const;
export type InterfaceBindingName = (typeof INTERFACE_BINDINGS)[number];

export const INTERFACE_MODELS = ["e1000", "e1000e", "igb", "ne2k_pci", "pcnet", "rtl8139", "virtio"] as const;

export const PortSchema = Type.Object({
  name: Type.Optional(Type.String()),
  protocol: Type.Optional(Type.String({ description: "TCP or UDP; defaults to TCP." })),
  port: Int32(),
});

export const InterfaceSchema = Type.Object({
  name: Type.String(),
  model: Type.Optional(Type.String({ description: "Defaults to virtio." })),
  bridge: Type.Optional(Marker()),
  masquerade: Type.Optional(Marker()),
  sriov: Type.Optional(Marker()),
  passtBinding: Type.Optional(Marker()),
  slirp: Type.Optional(Marker({ description: "Deprecated: removed in KubeVirt v1.3." })),
  macvtap: Type.Optional(Marker({ description: "Deprecated: removed in KubeVirt v1.3." })),
  passt: Type.Optional(Marker({ description: "Deprecated: removed in KubeVirt v1.3." })),
  binding: Type.Optional(Type.Object({ name: Type.String() })),
  ports: Type.Optional(Type.Array(PortSchema)),
  macAddress: Type.Optional(Type.String()),
  bootOrder: Type.Optional(Type.Integer()),
  pciAddress: Type.Optional(Type.String()),
  dhcpOptions: Type.Optional(
    Type.Object({
      bootFileName: Type.Optional(Type.String()),
      tftpServerName: Type.Optional(Type.String()),
      ntpServers: Type.Optional(Type.Array(Type.String())),
      privateOptions: Type.Optional(
        Type.Array(Type.Object({ option: Type.Integer(), value: Type.String() })),
      ),
    }),
  ),
  tag: Type.Optional(Type.String()),
  acpiIndex: Type.Optional(Type.Integer()),
  state: Type.Optional(StringEnum(["absent", "up", "down"])),
});
export type Interface = Static<typeof InterfaceSchema>;

/** The binding methods set on an interface (more than one is invalid). */
export function bindingsOf(iface: Interface): InterfaceBindingName[] {
  return INTERFACE_BINDINGS.filter((name) => iface[name] !== undefined);
}
