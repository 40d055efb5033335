import { type Static, Type } from "@sinclair/typebox";

/** `spec.networks[]`: the pod network or a Multus network, one per guest interface. */

export const NetworkSchema = Type.Object({
  name: Type.String(),
  pod: Type.Optional(
    Type.Object({
      vmNetworkCIDR: Type.Optional(Type.String()),
      vmIPv6NetworkCIDR: Type.Optional(Type.String()),
    }),
  ),
  multus: Type.Optional(
    Type.Object({
      networkName: Type.String({
        description: "<name> or <namespace>/<name> of a NetworkAttachmentDefinition.",
      }),
      default: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type Network = Static<typeof NetworkSchema>;
