import { type Static, Type } from "@sinclair/typebox";
import { Int64, QuantityValue } from "../schema/kube-types.js";

/** `spec.configuration.migrations` (MigrationConfiguration); defaults noted per field. */
export const MigrationConfigurationSchema = Type.Object({
  nodeDrainTaintKey: Type.Optional(Type.String({ description: "Defaults to kubevirt.io/drain." })),
  parallelOutboundMigrationsPerNode: Type.Optional(
    Type.Integer({ minimum: 0, description: "Defaults to 2." }),
  ),
  parallelMigrationsPerCluster: Type.Optional(Type.Integer({ minimum: 0, description: "Defaults to 5." })),
  allowAutoConverge: Type.Optional(Type.Boolean()),
  bandwidthPerMigration: Type.Optional(QuantityValue({ description: "Per second; 0 means unlimited." })),
  completionTimeoutPerGiB: Type.Optional(Int64({ description: "Defaults to 150." })),
  maxDowntimeMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000000 })),
  progressTimeout: Type.Optional(Int64({ description: "Defaults to 150." })),
  utilityVolumesTimeout: Type.Optional(Int64()),
  unsafeMigrationOverride: Type.Optional(Type.Boolean()),
  allowPostCopy: Type.Optional(Type.Boolean()),
  allowWorkloadDisruption: Type.Optional(Type.Boolean()),
  disableTLS: Type.Optional(Type.Boolean()),
  network: Type.Optional(Type.String()),
  matchSELinuxLevelOnMigration: Type.Optional(Type.Boolean()),
});
export type MigrationConfiguration = Static<typeof MigrationConfigurationSchema>;
