import { type Static, Type } from "@sinclair/typebox";
import { ConditionSchema } from "../core/condition.js";
import { Int64, StringEnum } from "../schema/kube-types.js";

export const KUBEVIRT_PHASES = ["Deploying", "Deployed", "Deleting", "Deleted"] as const;
export type KubeVirtPhase = (typeof KUBEVIRT_PHASES)[number];

export const KUBEVIRT_CONDITION_TYPES = {
  available: "Available",
  progressing: "Progressing",
  degraded: "Degraded",
  /** Only reported when false. */
  synchronized: "Synchronized",
  created: "Created",
} as const;

export const GenerationStatusSchema = Type.Object({
  group: Type.String(),
  resource: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  lastGeneration: Int64(),
  hash: Type.Optional(Type.String()),
});

export const KubeVirtStatusSchema = Type.Object({
  phase: Type.Optional(StringEnum(KUBEVIRT_PHASES)),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  operatorVersion: Type.Optional(Type.String()),
  targetKubeVirtRegistry: Type.Optional(Type.String()),
  targetKubeVirtVersion: Type.Optional(Type.String()),
  targetDeploymentConfig: Type.Optional(Type.String()),
  targetDeploymentID: Type.Optional(Type.String()),
  observedKubeVirtRegistry: Type.Optional(Type.String()),
  observedKubeVirtVersion: Type.Optional(Type.String()),
  observedDeploymentConfig: Type.Optional(Type.String()),
  observedDeploymentID: Type.Optional(Type.String()),
  outdatedVirtualMachineInstanceWorkloads: Type.Optional(Type.Integer()),
  observedGeneration: Type.Optional(Int64()),
  defaultArchitecture: Type.Optional(Type.String()),
  generations: Type.Optional(Type.Array(GenerationStatusSchema, { "x-kubernetes-list-type": "atomic" })),
});
export type KubeVirtStatus = Static<typeof KubeVirtStatusSchema>;
