import { type Static, Type } from "@sinclair/typebox";
import { Int32 } from "../schema/kube-types.js";
import { LabelSelectorSchema } from "./label-selector.js";

/** core/v1 Affinity, inlined in full as the API server requires of a structural schema. */

const NodeSelectorRequirementSchema = Type.Object({
  key: Type.String(),
  operator: Type.String(),
  values: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
});

const NodeSelectorTermSchema = Type.Object(
  {
    matchExpressions: Type.Optional(
      Type.Array(NodeSelectorRequirementSchema, { "x-kubernetes-list-type": "atomic" }),
    ),
    matchFields: Type.Optional(
      Type.Array(NodeSelectorRequirementSchema, { "x-kubernetes-list-type": "atomic" }),
    ),
  },
  { "x-kubernetes-map-type": "atomic" },
);

const NodeAffinitySchema = Type.Object({
  requiredDuringSchedulingIgnoredDuringExecution: Type.Optional(
    Type.Object(
      { nodeSelectorTerms: Type.Array(NodeSelectorTermSchema, { "x-kubernetes-list-type": "atomic" }) },
      { "x-kubernetes-map-type": "atomic" },
    ),
  ),
  preferredDuringSchedulingIgnoredDuringExecution: Type.Optional(
    Type.Array(Type.Object({ weight: Int32(), preference: NodeSelectorTermSchema }), {
      "x-kubernetes-list-type": "atomic",
    }),
  ),
});

const PodAffinityTermSchema = Type.Object({
  labelSelector: Type.Optional(LabelSelectorSchema),
  namespaceSelector: Type.Optional(LabelSelectorSchema),
  namespaces: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  topologyKey: Type.String(),
  matchLabelKeys: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  mismatchLabelKeys: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
});

const WeightedPodAffinityTermSchema = Type.Object({
  weight: Int32(),
  podAffinityTerm: PodAffinityTermSchema,
});

const PodAffinitySchema = Type.Object({
  requiredDuringSchedulingIgnoredDuringExecution: Type.Optional(
    Type.Array(PodAffinityTermSchema, { "x-kubernetes-list-type": "atomic" }),
  ),
  preferredDuringSchedulingIgnoredDuringExecution: Type.Optional(
    Type.Array(WeightedPodAffinityTermSchema, { "x-kubernetes-list-type": "atomic" }),
  ),
});

export const AffinitySchema = Type.Object({
  nodeAffinity: Type.Optional(NodeAffinitySchema),
  podAffinity: Type.Optional(PodAffinitySchema),
  podAntiAffinity: Type.Optional(PodAffinitySchema),
});
export type Affinity = Static<typeof AffinitySchema>;
