import { type Static, Type } from "@sinclair/typebox";
import { NullableTimestamp, QuantityValue, StringEnum, StringMap } from "../schema/kube-types.js";

/** VirtualMachineInstanceMigrationState: `status.migrationState` of a VMI and of a migration. */

const CommonStateProperties = {
  node: Type.Optional(Type.String()),
  pod: Type.Optional(Type.String()),
  migrationUID: Type.Optional(Type.String()),
  domainName: Type.Optional(Type.String()),
  domainNamespace: Type.Optional(Type.String()),
  syncAddress: Type.Optional(Type.String()),
  persistentStatePVCName: Type.Optional(Type.String()),
  selinuxContext: Type.Optional(Type.String()),
  virtualMachineInstanceUID: Type.Optional(Type.String()),
};

export const MigrationStateSchema = Type.Object({
  startTimestamp: Type.Optional(NullableTimestamp()),
  endTimestamp: Type.Optional(NullableTimestamp()),
  targetNodeDomainReadyTimestamp: Type.Optional(NullableTimestamp()),
  targetNodeDomainDetected: Type.Optional(Type.Boolean()),
  targetNodeAddress: Type.Optional(Type.String()),
  targetDirectMigrationNodePorts: Type.Optional(Type.Record(Type.String(), Type.Integer())),
  targetNode: Type.Optional(Type.String()),
  targetPod: Type.Optional(Type.String()),
  targetAttachmentPodUID: Type.Optional(Type.String()),
  sourceNode: Type.Optional(Type.String()),
  sourcePod: Type.Optional(Type.String()),
  completed: Type.Optional(Type.Boolean()),
  failed: Type.Optional(Type.Boolean()),
  abortRequested: Type.Optional(Type.Boolean()),
  abortStatus: Type.Optional(StringEnum(["Succeeded", "Failed", "Aborting"])),
  failureReason: Type.Optional(Type.String()),
  migrationUid: Type.Optional(Type.String()),
  mode: Type.Optional(StringEnum(["PreCopy", "PostCopy", "Paused"])),
  migrationPolicyName: Type.Optional(Type.String()),
  targetCPUSet: Type.Optional(Type.Array(Type.Integer(), { "x-kubernetes-list-type": "atomic" })),
  targetNodeTopology: Type.Optional(Type.String()),
  sourcePersistentStatePVCName: Type.Optional(Type.String()),
  targetPersistentStatePVCName: Type.Optional(Type.String()),
  sourceState: Type.Optional(
    Type.Object({ ...CommonStateProperties, nodeSelectors: Type.Optional(StringMap()) }),
  ),
  targetState: Type.Optional(
    Type.Object({
      ...CommonStateProperties,
      domainReadyTimestamp: Type.Optional(NullableTimestamp()),
      domainDetected: Type.Optional(Type.Boolean()),
      nodeAddress: Type.Optional(Type.String()),
      directMigrationNodePorts: Type.Optional(Type.Record(Type.String(), Type.Integer())),
      attachmentPodUID: Type.Optional(Type.String()),
      cpuSet: Type.Optional(Type.Array(Type.Integer(), { "x-kubernetes-list-type": "atomic" })),
      nodeTopology: Type.Optional(Type.String()),
    }),
  ),
  migrationNetworkType: Type.Optional(StringEnum(["Pod", "Migration"])),
  targetMemoryOverhead: Type.Optional(QuantityValue()),
});
export type MigrationState = Static<typeof MigrationStateSchema>;
