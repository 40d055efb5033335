import { type Static, Type } from "@sinclair/typebox";
import { ConditionSchema } from "../core/condition.js";
import { Int64, NullableTimestamp, StringEnum, StringMap } from "../schema/kube-types.js";
import { RUN_STRATEGIES } from "./vm-spec.js";
import { VirtualMachineVolumeRequestSchema } from "./volume-requests.js";

/** The printable statuses, in KubeVirt's words (`kubectl get vm` shows them). */
export const PRINTABLE_STATUSES = [
  "Stopped",
  "Provisioning",
  "Starting",
  "Running",
  "Paused",
  "Stopping",
  "Terminating",
  "CrashLoopBackOff",
  "Migrating",
  "Unknown",
  "ErrorUnschedulable",
  "ErrImagePull",
  "ImagePullBackOff",
  "ErrorPvcNotFound",
  "DataVolumeError",
  "WaitingForVolumeBinding",
  "WaitingForReceiver",
] as const;
export type PrintableStatus = (typeof PRINTABLE_STATUSES)[number];

export const VM_CONDITION_TYPES = {
  failure: "Failure",
  ready: "Ready",
  paused: "Paused",
  restartRequired: "RestartRequired",
  manualRecoveryRequired: "ManualRecoveryRequired",
} as const;

export const StateChangeRequestSchema = Type.Object({
  action: StringEnum(["Start", "Stop"]),
  data: Type.Optional(StringMap()),
  uid: Type.Optional(Type.String()),
});
export type StateChangeRequest = Static<typeof StateChangeRequestSchema>;

/**
 * `status.instancetypeRef` / `status.preferenceRef`: what the VM's matcher resolved to and the
 * ControllerRevision holding the copy its VMIs are expanded from (KubeVirt's InstancetypeStatusRef).
 */
export const InstancetypeStatusRefSchema = Type.Object({
  name: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  controllerRevisionRef: Type.Optional(Type.Object({ name: Type.Optional(Type.String()) })),
  inferFromVolume: Type.Optional(Type.String()),
  inferFromVolumeFailurePolicy: Type.Optional(StringEnum(["Reject", "Ignore"])),
});
export type InstancetypeStatusRef = Static<typeof InstancetypeStatusRefSchema>;

export const VirtualMachineStatusSchema = Type.Object({
  printableStatus: Type.Optional(StringEnum(PRINTABLE_STATUSES)),
  created: Type.Optional(Type.Boolean()),
  ready: Type.Optional(Type.Boolean()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  stateChangeRequests: Type.Optional(Type.Array(StateChangeRequestSchema)),
  volumeRequests: Type.Optional(
    Type.Array(VirtualMachineVolumeRequestSchema, { "x-kubernetes-list-type": "atomic" }),
  ),
  startFailure: Type.Optional(
    Type.Union([
      Type.Object({
        consecutiveFailCount: Type.Optional(Type.Integer()),
        lastFailedVMIUID: Type.Optional(Type.String()),
        retryAfterTimestamp: Type.Optional(NullableTimestamp()),
      }),
      Type.Null(),
    ]),
  ),
  observedGeneration: Type.Optional(Int64()),
  instancetypeRef: Type.Optional(InstancetypeStatusRefSchema),
  preferenceRef: Type.Optional(InstancetypeStatusRefSchema),
  desiredGeneration: Type.Optional(Int64()),
  runStrategy: Type.Optional(StringEnum(RUN_STRATEGIES)),
  snapshotInProgress: Type.Optional(Type.String()),
  restoreInProgress: Type.Optional(Type.String()),
  volumeSnapshotStatuses: Type.Optional(
    Type.Array(
      Type.Object({ name: Type.String(), enabled: Type.Boolean(), reason: Type.Optional(Type.String()) }),
    ),
  ),
});
export type VirtualMachineStatus = Static<typeof VirtualMachineStatusSchema>;
