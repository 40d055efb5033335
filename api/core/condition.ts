import { type Static, Type } from "@sinclair/typebox";
import { NullableTimestamp, StringEnum } from "../schema/kube-types.js";

export const CONDITION_STATUSES = ["True", "False", "Unknown"] as const;
export type ConditionStatus = (typeof CONDITION_STATUSES)[number];

/**
 * The condition shape every kubevirt.io kind shares: type, status, nullable probe and transition
 * times, reason, message. `type` stays an open string in the schema (KubeVirt adds condition
 * types over time); each kind exports its known types as constants.
 */
export const ConditionSchema = Type.Object({
  type: Type.String(),
  status: StringEnum(CONDITION_STATUSES),
  lastProbeTime: Type.Optional(NullableTimestamp()),
  lastTransitionTime: Type.Optional(NullableTimestamp()),
  reason: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});
export type Condition = Static<typeof ConditionSchema>;
