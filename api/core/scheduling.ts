import { type Static, Type } from "@sinclair/typebox";
import { Int32, Int64 } from "../schema/kube-types.js";
import { LabelSelectorSchema } from "./label-selector.js";

/** core/v1 Toleration */
export const TolerationSchema = Type.Object({
  key: Type.Optional(Type.String()),
  operator: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  effect: Type.Optional(Type.String()),
  tolerationSeconds: Type.Optional(Int64()),
});
export type Toleration = Static<typeof TolerationSchema>;

/** core/v1 TopologySpreadConstraint */
export const TopologySpreadConstraintSchema = Type.Object({
  maxSkew: Int32(),
  topologyKey: Type.String(),
  whenUnsatisfiable: Type.String(),
  labelSelector: Type.Optional(LabelSelectorSchema),
  minDomains: Type.Optional(Int32()),
  nodeAffinityPolicy: Type.Optional(Type.String()),
  nodeTaintsPolicy: Type.Optional(Type.String()),
  matchLabelKeys: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
});
export type TopologySpreadConstraint = Static<typeof TopologySpreadConstraintSchema>;

/** core/v1 PodDNSConfig */
export const PodDnsConfigSchema = Type.Object({
  nameservers: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  searches: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  options: Type.Optional(
    Type.Array(Type.Object({ name: Type.Optional(Type.String()), value: Type.Optional(Type.String()) }), {
      "x-kubernetes-list-type": "atomic",
    }),
  ),
});
export type PodDnsConfig = Static<typeof PodDnsConfigSchema>;

export const DNS_POLICIES = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"] as const;
export const PULL_POLICIES = ["Always", "Never", "IfNotPresent"] as const;
export type PullPolicy = (typeof PULL_POLICIES)[number];
