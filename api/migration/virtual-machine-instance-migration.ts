import { type Static, Type } from "@sinclair/typebox";
import { ConditionSchema } from "../core/condition.js";
import { defineKind } from "../kind.js";
import { NullableTimestamp, StringEnum, StringMap } from "../schema/kube-types.js";
import { MigrationStateSchema } from "../vmi/migration-state.js";

export const MIGRATION_PHASES = [
  "Pending",
  "Scheduling",
  "Scheduled",
  "PreparingTarget",
  "TargetReady",
  "Running",
  "Succeeded",
  "Failed",
  "WaitingForSync",
  "Synchronizing",
] as const;
export type MigrationPhase = (typeof MIGRATION_PHASES)[number];

export const VirtualMachineInstanceMigrationSpecSchema = Type.Object({
  vmiName: Type.Optional(Type.String({ description: "The VMI to migrate, in the migration's namespace." })),
  addedNodeSelector: Type.Optional(StringMap()),
  priority: Type.Optional(StringEnum(["system-critical", "user-triggered", "system-maintenance"])),
  sendTo: Type.Optional(Type.Object({ migrationID: Type.String(), connectURL: Type.String() })),
  receive: Type.Optional(Type.Object({ migrationID: Type.String() })),
});
export type VirtualMachineInstanceMigrationSpec = Static<typeof VirtualMachineInstanceMigrationSpecSchema>;

export const VirtualMachineInstanceMigrationStatusSchema = Type.Object({
  phase: Type.Optional(StringEnum(MIGRATION_PHASES)),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
  phaseTransitionTimestamps: Type.Optional(
    Type.Array(
      Type.Object({
        phase: Type.Optional(StringEnum(MIGRATION_PHASES)),
        phaseTransitionTimestamp: Type.Optional(NullableTimestamp()),
      }),
      { "x-kubernetes-list-type": "atomic" },
    ),
  ),
  migrationState: Type.Optional(MigrationStateSchema),
  synchronizationAddresses: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
});
export type VirtualMachineInstanceMigrationStatus = Static<
  typeof VirtualMachineInstanceMigrationStatusSchema
>;

/** VirtualMachineInstanceMigration: one live migration of a VMI to another node. */
export const VirtualMachineInstanceMigrationKind = defineKind({
  kind: "VirtualMachineInstanceMigration",
  plural: "virtualmachineinstancemigrations",
  shortNames: ["vmim", "vmims"],
  categories: ["all"],
  spec: VirtualMachineInstanceMigrationSpecSchema,
  status: VirtualMachineInstanceMigrationStatusSchema,
  description:
    "VirtualMachineInstanceMigration represents the object tracking a VMI's migration to another host in the cluster",
  printerColumns: [
    {
      name: "Phase",
      type: "string",
      jsonPath: ".status.phase",
      description: "The current phase of VM instance migration",
    },
    {
      name: "VMI",
      type: "string",
      jsonPath: ".spec.vmiName",
      description: "The name of the VMI to perform the migration on",
    },
  ],
  subresources: { status: true },
});

export type VirtualMachineInstanceMigration = Static<typeof VirtualMachineInstanceMigrationKind.schema>;
