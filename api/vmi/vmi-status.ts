import { type Static, Type } from "@sinclair/typebox";
import { ConditionSchema } from "../core/condition.js";
import { Int64, NullableTimestamp, ResourceList, StringEnum, StringMap } from "../schema/kube-types.js";
import { CpuTopologySchema, TopologyHintsSchema } from "./cpu.js";
import { MachineSchema } from "./firmware.js";
import { MemoryStatusSchema } from "./memory.js";
import { MigrationStateSchema } from "./migration-state.js";

export const VMI_PHASES = [
  "Pending",
  "Scheduling",
  "Scheduled",
  "Running",
  "Succeeded",
  "Failed",
  "WaitingForSync",
  "Unknown",
] as const;
export type VirtualMachineInstancePhase = (typeof VMI_PHASES)[number];

const PhaseSchema = StringEnum(VMI_PHASES);

export const VmiInterfaceStatusSchema = Type.Object({
  ipAddress: Type.Optional(Type.String()),
  ipAddresses: Type.Optional(Type.Array(Type.String())),
  mac: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  podInterfaceName: Type.Optional(Type.String()),
  interfaceName: Type.Optional(Type.String()),
  infoSource: Type.Optional(Type.String()),
  queueCount: Type.Optional(Type.Integer({ format: "int32" })),
  linkState: Type.Optional(Type.String()),
});
export type VmiInterfaceStatus = Static<typeof VmiInterfaceStatusSchema>;

export const GuestOsInfoSchema = Type.Object({
  name: Type.Optional(Type.String()),
  kernelRelease: Type.Optional(Type.String()),
  version: Type.Optional(Type.String()),
  prettyName: Type.Optional(Type.String()),
  versionId: Type.Optional(Type.String()),
  kernelVersion: Type.Optional(Type.String()),
  machine: Type.Optional(Type.String()),
  id: Type.Optional(Type.String()),
});

const PvcInfoSchema = Type.Object({
  claimName: Type.Optional(Type.String()),
  accessModes: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  volumeMode: Type.Optional(Type.String()),
  capacity: Type.Optional(ResourceList()),
  requests: Type.Optional(ResourceList()),
  preallocated: Type.Optional(Type.Boolean()),
  filesystemOverhead: Type.Optional(Type.String({ pattern: "^(0(?:\\.\\d{1,3})?|1)$" })),
});

export const VolumeStatusSchema = Type.Object({
  name: Type.String(),
  target: Type.String(),
  phase: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  persistentVolumeClaimInfo: Type.Optional(PvcInfoSchema),
  hotplugVolume: Type.Optional(
    Type.Object({ attachPodName: Type.Optional(Type.String()), attachPodUID: Type.Optional(Type.String()) }),
  ),
  size: Type.Optional(Int64()),
  containerDiskVolume: Type.Optional(Type.Object({ checksum: Type.Optional(Int64({ minimum: 0 })) })),
});

export const VirtualMachineInstanceStatusSchema = Type.Object({
  phase: Type.Optional(PhaseSchema),
  phaseTransitionTimestamps: Type.Optional(
    Type.Array(
      Type.Object({
        phase: Type.Optional(PhaseSchema),
        phaseTransitionTimestamp: Type.Optional(NullableTimestamp()),
      }),
      { "x-kubernetes-list-type": "atomic" },
    ),
  ),
  nodeName: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  interfaces: Type.Optional(Type.Array(VmiInterfaceStatusSchema)),
  guestOSInfo: Type.Optional(GuestOsInfoSchema),
  migrationState: Type.Optional(MigrationStateSchema),
  migrationMethod: Type.Optional(StringEnum(["BlockMigration", "LiveMigration"])),
  migrationTransport: Type.Optional(StringEnum(["Unix"])),
  qosClass: Type.Optional(StringEnum(["Guaranteed", "Burstable", "BestEffort"])),
  launcherContainerImageVersion: Type.Optional(Type.String()),
  evacuationNodeName: Type.Optional(Type.String()),
  activePods: Type.Optional(StringMap({ description: "Pod UID → node name." })),
  volumeStatus: Type.Optional(Type.Array(VolumeStatusSchema, { "x-kubernetes-list-type": "atomic" })),
  fsFreezeStatus: Type.Optional(Type.String()),
  topologyHints: Type.Optional(TopologyHintsSchema),
  virtualMachineRevisionName: Type.Optional(Type.String()),
  runtimeUser: Type.Optional(Int64({ minimum: 0 })),
  VSOCKCID: Type.Optional(Int64({ minimum: 0, maximum: 4294967295 })),
  selinuxContext: Type.Optional(Type.String()),
  machine: Type.Optional(MachineSchema),
  currentCPUTopology: Type.Optional(CpuTopologySchema),
  memory: Type.Optional(MemoryStatusSchema),
});
export type VirtualMachineInstanceStatus = Static<typeof VirtualMachineInstanceStatusSchema>;
