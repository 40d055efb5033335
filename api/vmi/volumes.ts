import { type Static, Type } from "@sinclair/typebox";
import {
  LocalObjectReferenceSchema,
  PersistentVolumeClaimVolumeSourceProperties,
} from "../core/references.js";
import { PULL_POLICIES } from "../core/scheduling.js";
import { Marker, QuantityValue, StringEnum } from "../schema/kube-types.js";

/**
 * `spec.volumes[]`: a named volume with exactly one source. Structurally every source is an
 * optional property of the volume (as in KubeVirt's inline VolumeSource); validation enforces
 * "exactly one".
 */

export const HOST_DISK_TYPES = ["Disk", "DiskOrCreate"] as const;

const CloudInitSourceSchema = Type.Object({
  userData: Type.Optional(Type.String()),
  userDataBase64: Type.Optional(Type.String()),
  secretRef: Type.Optional(LocalObjectReferenceSchema),
  networkData: Type.Optional(Type.String()),
  networkDataBase64: Type.Optional(Type.String()),
  networkDataSecretRef: Type.Optional(LocalObjectReferenceSchema),
});
export type CloudInitSource = Static<typeof CloudInitSourceSchema>;

export const ContainerDiskSourceSchema = Type.Object({
  image: Type.String({ description: "Image with the disk at /disk/* (or at path)." }),
  imagePullSecret: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  imagePullPolicy: Type.Optional(StringEnum(PULL_POLICIES)),
});

const PersistentVolumeClaimSourceSchema = Type.Object({
  ...PersistentVolumeClaimVolumeSourceProperties,
  hotpluggable: Type.Optional(Type.Boolean()),
});

const DownwardApiFileSchema = Type.Object({
  path: Type.String(),
  fieldRef: Type.Optional(
    Type.Object({ apiVersion: Type.Optional(Type.String()), fieldPath: Type.String() }),
  ),
  resourceFieldRef: Type.Optional(
    Type.Object({
      containerName: Type.Optional(Type.String()),
      resource: Type.String(),
      divisor: Type.Optional(QuantityValue()),
    }),
  ),
  mode: Type.Optional(Type.Integer({ format: "int32" })),
});

/** The sources, one property each; SOURCE_NAMES lists them for "exactly one" checks. */
const volumeSources = {
  containerDisk: Type.Optional(ContainerDiskSourceSchema),
  cloudInitNoCloud: Type.Optional(CloudInitSourceSchema),
  cloudInitConfigDrive: Type.Optional(CloudInitSourceSchema),
  emptyDisk: Type.Optional(
    Type.Object({ capacity: QuantityValue({ description: "Size of the sparse disk." }) }),
  ),
  ephemeral: Type.Optional(
    Type.Object({
      persistentVolumeClaim: Type.Optional(Type.Object(PersistentVolumeClaimVolumeSourceProperties)),
    }),
  ),
  hostDisk: Type.Optional(
    Type.Object({
      path: Type.String(),
      type: Type.String({ description: "Disk or DiskOrCreate." }),
      capacity: Type.Optional(QuantityValue()),
      shared: Type.Optional(Type.Boolean()),
    }),
  ),
  persistentVolumeClaim: Type.Optional(PersistentVolumeClaimSourceSchema),
  dataVolume: Type.Optional(
    Type.Object({ name: Type.String(), hotpluggable: Type.Optional(Type.Boolean()) }),
  ),
  configMap: Type.Optional(
    Type.Object({
      name: Type.Optional(Type.String()),
      optional: Type.Optional(Type.Boolean()),
      volumeLabel: Type.Optional(Type.String()),
    }),
  ),
  secret: Type.Optional(
    Type.Object({
      secretName: Type.Optional(Type.String()),
      optional: Type.Optional(Type.Boolean()),
      volumeLabel: Type.Optional(Type.String()),
    }),
  ),
  serviceAccount: Type.Optional(Type.Object({ serviceAccountName: Type.Optional(Type.String()) })),
  downwardAPI: Type.Optional(
    Type.Object({
      fields: Type.Optional(Type.Array(DownwardApiFileSchema)),
      volumeLabel: Type.Optional(Type.String()),
    }),
  ),
  downwardMetrics: Type.Optional(Marker()),
  sysprep: Type.Optional(
    Type.Object({
      secret: Type.Optional(LocalObjectReferenceSchema),
      configMap: Type.Optional(LocalObjectReferenceSchema),
    }),
  ),
  memoryDump: Type.Optional(
    Type.Object({
      ...PersistentVolumeClaimVolumeSourceProperties,
      hotpluggable: Type.Optional(Type.Boolean()),
    }),
  ),
};

export type VolumeSourceName = keyof typeof volumeSources;
export const VOLUME_SOURCE_NAMES = Object.keys(volumeSources) as VolumeSourceName[];

export const VolumeSchema = Type.Object({ name: Type.String(), ...volumeSources });
export type Volume = Static<typeof VolumeSchema>;

/** The sources set on a volume (exactly one is valid). */
export function sourcesOf(volume: Volume): VolumeSourceName[] {
  return VOLUME_SOURCE_NAMES.filter((name) => volume[name] !== undefined);
}
