import { type Static, Type } from "@sinclair/typebox";
import { ConditionSchema } from "../core/condition.js";
import { LabelSelectorSchema } from "../core/label-selector.js";
import { TemplateMetadataSchema } from "../core/object-meta.js";
import { defineKind } from "../kind.js";
import { Duration, Int32, IntOrString, Marker, StringEnum } from "../schema/kube-types.js";
import { VirtualMachineSpecSchema } from "../vm/vm-spec.js";

/**
 * KubeVirt's VirtualMachinePool (`pool.kubevirt.io/v1beta1`): N VirtualMachines from one VM
 * template, named `<pool>-<index>`. The whole of KubeVirt's spec is declared, so nothing a
 * manifest sets is pruned silently; what kubevirt-ts does not do yet is refused at admission
 * (validation/pool-validation.ts).
 */
export const POOL_GROUP = "pool.kubevirt.io";
export const POOL_VERSION = "v1beta1";

/** On the pool and on each of its VMs, as KubeVirt sets it: the pool controller sees them go. */
export const POOL_FINALIZER = "pool.kubevirt.io/finalizer";

export const POOL_CONDITION_TYPES = {
  replicaFailure: "ReplicaFailure",
  replicaPaused: "ReplicaPaused",
} as const;

export const POOL_SORT_POLICIES = [
  "AscendingOrder",
  "DescendingOrder",
  "Newest",
  "Oldest",
  "Random",
] as const;
export type PoolSortPolicy = (typeof POOL_SORT_POLICIES)[number];

export const STATE_PRESERVATIONS = ["Disabled", "Offline", "Online"] as const;

const NodeSelectorRequirementSchema = Type.Object({
  key: Type.String(),
  operator: Type.String(),
  values: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
});

const SelectionPolicySchema = Type.Object({
  sortPolicy: Type.Optional(StringEnum(POOL_SORT_POLICIES)),
  selectors: Type.Optional(
    Type.Object({
      labelSelector: Type.Optional(LabelSelectorSchema),
      nodeSelectorRequirementMatcher: Type.Optional(Type.Array(NodeSelectorRequirementSchema)),
    }),
  ),
});
export type PoolSelectionPolicy = Static<typeof SelectionPolicySchema>;

const StatePreservationSchema = Type.Optional(StringEnum(STATE_PRESERVATIONS));

export const VirtualMachinePoolSpecSchema = Type.Object({
  replicas: Type.Optional(Int32({ description: "Number of desired VMs; defaults to 1.", minimum: 0 })),
  selector: LabelSelectorSchema,
  virtualMachineTemplate: Type.Object({
    metadata: Type.Optional(TemplateMetadataSchema),
    spec: VirtualMachineSpecSchema,
  }),
  paused: Type.Optional(Type.Boolean()),
  nameGeneration: Type.Optional(
    Type.Object({
      appendIndexToConfigMapRefs: Type.Optional(Type.Boolean()),
      appendIndexToSecretRefs: Type.Optional(Type.Boolean()),
    }),
  ),
  maxUnavailable: Type.Optional(IntOrString()),
  scaleInStrategy: Type.Optional(
    Type.Object({
      unmanaged: Type.Optional(Marker()),
      opportunistic: Type.Optional(Type.Object({ statePreservation: StatePreservationSchema })),
      proactive: Type.Optional(
        Type.Object({
          selectionPolicy: Type.Optional(SelectionPolicySchema),
          statePreservation: StatePreservationSchema,
        }),
      ),
    }),
  ),
  updateStrategy: Type.Optional(
    Type.Object({
      unmanaged: Type.Optional(Marker()),
      opportunistic: Type.Optional(Marker()),
      proactive: Type.Optional(Type.Object({ selectionPolicy: Type.Optional(SelectionPolicySchema) })),
    }),
  ),
  autohealing: Type.Optional(
    Type.Object({
      startUpFailureThreshold: Type.Optional(Type.Integer({ minimum: 1, format: "int32" })),
      minFailingToStartDuration: Type.Optional(Duration()),
    }),
  ),
});
export type VirtualMachinePoolSpec = Static<typeof VirtualMachinePoolSpecSchema>;

export const VirtualMachinePoolStatusSchema = Type.Object({
  replicas: Type.Optional(Int32()),
  readyReplicas: Type.Optional(Int32()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  labelSelector: Type.Optional(
    Type.String({ description: "Canonical selector, for the scale subresource." }),
  ),
});
export type VirtualMachinePoolStatus = Static<typeof VirtualMachinePoolStatusSchema>;

/** VirtualMachinePool: named VMs from one template; status and scale subresources. */
export const VirtualMachinePoolKind = defineKind({
  group: POOL_GROUP,
  version: POOL_VERSION,
  kind: "VirtualMachinePool",
  plural: "virtualmachinepools",
  shortNames: ["vmpool", "vmpools"],
  categories: ["all"],
  spec: VirtualMachinePoolSpecSchema,
  status: VirtualMachinePoolStatusSchema,
  description:
    "VirtualMachinePool resource contains a VirtualMachine configuration that can be used to replicate multiple VirtualMachine resources.",
  printerColumns: [
    {
      name: "Desired",
      type: "integer",
      jsonPath: ".spec.replicas",
      description: "Number of desired VirtualMachines",
    },
    {
      name: "Current",
      type: "integer",
      jsonPath: ".status.replicas",
      description: "Number of managed and not final or deleted VirtualMachines",
    },
    {
      name: "Ready",
      type: "integer",
      jsonPath: ".status.readyReplicas",
      description: "Number of managed VirtualMachines which are ready to receive traffic",
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

export type VirtualMachinePool = Static<typeof VirtualMachinePoolKind.schema>;
