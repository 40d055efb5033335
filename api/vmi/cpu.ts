import { type Static, Type } from "@sinclair/typebox";
import { Int64, Marker } from "../schema/kube-types.js";

/** `spec.domain.cpu` (KubeVirt's CPU). Counts are uint32 in KubeVirt; 0 means "not set". */

/** CPU modes that are not named models. */
export const CPU_MODE_HOST_MODEL = "host-model";
export const CPU_MODE_HOST_PASSTHROUGH = "host-passthrough";

export const CPU_FEATURE_POLICIES = ["force", "require", "optional", "disable", "forbid"] as const;

const Count = () => Type.Integer({ format: "int32", minimum: 0 });

export const CpuFeatureSchema = Type.Object({
  name: Type.String(),
  policy: Type.Optional(Type.String()),
});

export const CpuSchema = Type.Object({
  cores: Type.Optional(Count()),
  sockets: Type.Optional(Count()),
  threads: Type.Optional(Count()),
  maxSockets: Type.Optional(Count()),
  model: Type.Optional(Type.String()),
  features: Type.Optional(Type.Array(CpuFeatureSchema)),
  dedicatedCpuPlacement: Type.Optional(Type.Boolean()),
  isolateEmulatorThread: Type.Optional(Type.Boolean()),
  numa: Type.Optional(Type.Object({ guestMappingPassthrough: Type.Optional(Marker()) })),
  realtime: Type.Optional(Type.Object({ mask: Type.Optional(Type.String()) })),
});
export type Cpu = Static<typeof CpuSchema>;

/** The CPU topology reported in status (`currentCPUTopology`). */
export const CpuTopologySchema = Type.Object({
  cores: Type.Optional(Count()),
  sockets: Type.Optional(Count()),
  threads: Type.Optional(Count()),
});
export type CpuTopology = Static<typeof CpuTopologySchema>;

export const TopologyHintsSchema = Type.Object({ tscFrequency: Type.Optional(Int64()) });
