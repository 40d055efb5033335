import { type Static, Type } from "@sinclair/typebox";
import { ConditionSchema } from "../core/condition.js";
import { LabelSelectorSchema } from "../core/label-selector.js";
import { defineKind } from "../kind.js";
import { Int32 } from "../schema/kube-types.js";
import { VirtualMachineInstanceTemplateSpecSchema } from "../vmi/vmi-spec.js";

export const VMIRS_CONDITION_TYPES = {
  replicaFailure: "ReplicaFailure",
  replicaPaused: "ReplicaPaused",
} as const;

export const VirtualMachineInstanceReplicaSetSpecSchema = Type.Object({
  replicas: Type.Optional(Int32({ description: "Number of desired VMIs; defaults to 1." })),
  selector: LabelSelectorSchema,
  template: VirtualMachineInstanceTemplateSpecSchema,
  paused: Type.Optional(Type.Boolean()),
});
export type VirtualMachineInstanceReplicaSetSpec = Static<typeof VirtualMachineInstanceReplicaSetSpecSchema>;

export const VirtualMachineInstanceReplicaSetStatusSchema = Type.Object({
  replicas: Type.Optional(Int32()),
  readyReplicas: Type.Optional(Int32()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  labelSelector: Type.Optional(
    Type.String({ description: "Canonical selector, for the scale subresource." }),
  ),
});
export type VirtualMachineInstanceReplicaSetStatus = Static<
  typeof VirtualMachineInstanceReplicaSetStatusSchema
>;

/** VirtualMachineInstanceReplicaSet: N identical VMIs from one template; status and scale subresources. */
export const VirtualMachineInstanceReplicaSetKind = defineKind({
  kind: "VirtualMachineInstanceReplicaSet",
  plural: "virtualmachineinstancereplicasets",
  shortNames: ["vmirs", "vmirss"],
  categories: ["all"],
  spec: VirtualMachineInstanceReplicaSetSpecSchema,
  status: VirtualMachineInstanceReplicaSetStatusSchema,
  description:
    "VirtualMachineInstanceReplicaSet keeps a number of VirtualMachineInstances from one template running.",
  printerColumns: [
    {
      name: "Desired",
      type: "integer",
      jsonPath: ".spec.replicas",
      description: "Number of desired VirtualMachineInstances",
    },
    {
      name: "Current",
      type: "integer",
      jsonPath: ".status.replicas",
      description: "Number of managed and not final or deleted VirtualMachineInstances",
    },
    {
      name: "Ready",
      type: "integer",
      jsonPath: ".status.readyReplicas",
      description: "Number of managed VirtualMachineInstances which are ready to receive traffic",
    },
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
  ],
  subresources: {
    status: true,
    scale: {
      specReplicasPath: ".spec.replicas",
      statusReplicasPath: ".status.replicas",
      labelSelectorPath: ".status.labelSelector",
    },
  },
});

export type VirtualMachineInstanceReplicaSet = Static<typeof VirtualMachineInstanceReplicaSetKind.schema>;
