import { type Static, Type } from "@sinclair/typebox";
import { ConditionSchema } from "../core/condition.js";
import { defineKind } from "../kind.js";
import { Int32 } from "../schema/kube-types.js";
import { DataVolumeSpecSchema } from "../vm/data-volume-template.js";

/**
 * CDI's DataVolume (`cdi.kubevirt.io/v1beta1`), the subset KubeVirt manifests use: a claim of the
 * DataVolume's name, filled from its source (an http URL, a registry image, another claim, or blank)
 * by an importer pod. KubeVirt waits for it before a VM on it starts.
 */
export const CDI_GROUP = "cdi.kubevirt.io";
export const CDI_VERSION = "v1beta1";

/**
 * CDI's default share of a Filesystem volume kept for the file system (its CDIConfig's global
 * `filesystemOverhead`; kubevirt-ts has no CDIConfig yet). virt-controller adds it to a DataVolume's
 * claim, virt-handler leaves it free when it makes a claim's disk: one value, so the two agree.
 */
export const CDI_FILESYSTEM_OVERHEAD = 0.06;

/** CDI's phases (its DataVolumePhase), those kubevirt-ts goes through first. */
export const DATA_VOLUME_PHASES = [
  "Pending",
  "PVCBound",
  "WaitForFirstConsumer",
  "ImportScheduled",
  "ImportInProgress",
  "CloneScheduled",
  "CloneInProgress",
  "Succeeded",
  "Failed",
  "Unknown",
] as const;
export type DataVolumePhase = (typeof DATA_VOLUME_PHASES)[number];

export const DataVolumeStatusSchema = Type.Object({
  claimName: Type.Optional(Type.String()),
  phase: Type.Optional(Type.String()),
  /** "N/A" until known, then "45.20%", "100.0%" on success (CDI's format). */
  progress: Type.Optional(Type.String()),
  restartCount: Type.Optional(Int32()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
});
export type DataVolumeStatus = Static<typeof DataVolumeStatusSchema>;

export const DataVolumeKind = defineKind({
  group: CDI_GROUP,
  version: CDI_VERSION,
  kind: "DataVolume",
  plural: "datavolumes",
  shortNames: ["dv", "dvs"],
  categories: ["all"],
  spec: DataVolumeSpecSchema,
  status: DataVolumeStatusSchema,
  description:
    "DataVolume is an abstraction on top of PersistentVolumeClaims to allow easy population of those PersistentVolumeClaims with relation to VirtualMachines",
  printerColumns: [
    {
      name: "Phase",
      type: "string",
      jsonPath: ".status.phase",
      description: "The phase the data volume is in",
    },
    {
      name: "Progress",
      type: "string",
      jsonPath: ".status.progress",
      description: "Transfer progress in percentage if known, N/A otherwise",
    },
    {
      name: "Restarts",
      type: "integer",
      jsonPath: ".status.restartCount",
      description: "The number of times the transfer has been restarted.",
    },
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
  ],
  subresources: { status: true },
});

export type DataVolume = Static<typeof DataVolumeKind.schema>;
