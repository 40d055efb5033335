import type { Static } from "@sinclair/typebox";
import { defineKind } from "../kind.js";
import { KubeVirtSpecSchema } from "./kubevirt-spec.js";
import { KubeVirtStatusSchema } from "./kubevirt-status.js";

/** KubeVirt: the install of KubeVirt itself and its cluster-wide configuration. */
export const KubeVirtKind = defineKind({
  kind: "KubeVirt",
  plural: "kubevirts",
  shortNames: ["kv", "kvs"],
  categories: ["all"],
  spec: KubeVirtSpecSchema,
  status: KubeVirtStatusSchema,
  description: "KubeVirt represents the object deploying all KubeVirt resources",
  printerColumns: [
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
    { name: "Phase", type: "string", jsonPath: ".status.phase" },
  ],
  subresources: { status: true },
});

export type KubeVirt = Static<typeof KubeVirtKind.schema>;
