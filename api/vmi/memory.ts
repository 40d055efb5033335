import { type Static, Type } from "@sinclair/typebox";
import { QuantityValue, ResourceList } from "../schema/kube-types.js";

/** `spec.domain.memory` and `spec.domain.resources`. */

export const MemorySchema = Type.Object({
  guest: Type.Optional(
    QuantityValue({ description: "Memory visible inside the guest; defaults to the memory request." }),
  ),
  maxGuest: Type.Optional(QuantityValue()),
  hugepages: Type.Optional(Type.Object({ pageSize: Type.Optional(Type.String()) })),
});
export type Memory = Static<typeof MemorySchema>;

export const ResourceRequirementsSchema = Type.Object({
  requests: Type.Optional(ResourceList({ description: "Valid resource keys are memory and cpu." })),
  limits: Type.Optional(ResourceList()),
  overcommitGuestOverhead: Type.Optional(Type.Boolean()),
});
export type ResourceRequirements = Static<typeof ResourceRequirementsSchema>;

/** ResourceRequirementsWithoutClaims (support containers in the KubeVirt CR). */
export const ResourceRequirementsWithoutClaimsSchema = Type.Object({
  requests: Type.Optional(ResourceList()),
  limits: Type.Optional(ResourceList()),
});

export const MemoryStatusSchema = Type.Object({
  guestAtBoot: Type.Optional(QuantityValue()),
  guestCurrent: Type.Optional(QuantityValue()),
  guestRequested: Type.Optional(QuantityValue()),
});
