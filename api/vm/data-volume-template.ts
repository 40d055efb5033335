import { type Static, Type } from "@sinclair/typebox";
import { LabelSelectorSchema } from "../core/label-selector.js";
import { TemplateMetadataSchema } from "../core/object-meta.js";
import { Marker, ResourceList, StringEnum } from "../schema/kube-types.js";

/**
 * `spec.dataVolumeTemplates[]`: CDI DataVolumes a VM creates for its volumes. The spec is CDI's
 * DataVolumeSpec (its common sources, pvc and storage), as manifests written for KubeVirt give it;
 * api/cdi/data-volume.ts is the DataVolume kind itself.
 */

const TypedReference = {
  apiGroup: Type.Optional(Type.String()),
  kind: Type.String(),
  name: Type.String(),
};

const ClaimSpecSchema = Type.Object({
  accessModes: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
  resources: Type.Optional(
    Type.Object({ requests: Type.Optional(ResourceList()), limits: Type.Optional(ResourceList()) }),
  ),
  storageClassName: Type.Optional(Type.String()),
  volumeMode: Type.Optional(Type.String()),
  volumeName: Type.Optional(Type.String()),
  selector: Type.Optional(LabelSelectorSchema),
  dataSource: Type.Optional(Type.Object(TypedReference)),
  dataSourceRef: Type.Optional(Type.Object({ ...TypedReference, namespace: Type.Optional(Type.String()) })),
  volumeAttributesClassName: Type.Optional(Type.String()),
});

const SecretAndCerts = {
  secretRef: Type.Optional(Type.String()),
  certConfigMap: Type.Optional(Type.String()),
};

const DataVolumeSourceSchema = Type.Object({
  http: Type.Optional(
    Type.Object({
      url: Type.String(),
      ...SecretAndCerts,
      extraHeaders: Type.Optional(Type.Array(Type.String())),
      secretExtraHeaders: Type.Optional(Type.Array(Type.String())),
    }),
  ),
  registry: Type.Optional(
    Type.Object({
      url: Type.Optional(Type.String()),
      imageStream: Type.Optional(Type.String()),
      pullMethod: Type.Optional(StringEnum(["pod", "node"])),
      ...SecretAndCerts,
      platform: Type.Optional(Type.Object({ architecture: Type.Optional(Type.String()) })),
    }),
  ),
  s3: Type.Optional(Type.Object({ url: Type.String(), ...SecretAndCerts })),
  gcs: Type.Optional(Type.Object({ url: Type.String(), secretRef: Type.Optional(Type.String()) })),
  pvc: Type.Optional(Type.Object({ name: Type.String(), namespace: Type.String() })),
  snapshot: Type.Optional(Type.Object({ name: Type.String(), namespace: Type.String() })),
  blank: Type.Optional(Marker()),
  upload: Type.Optional(Marker()),
});

/** CDI's DataVolumeSpec: what a DataVolume and a VM's dataVolumeTemplates hold. */
export const DataVolumeSpecSchema = Type.Object({
  source: Type.Optional(DataVolumeSourceSchema),
  sourceRef: Type.Optional(
    Type.Object({ kind: Type.String(), name: Type.String(), namespace: Type.Optional(Type.String()) }),
  ),
  pvc: Type.Optional(ClaimSpecSchema),
  storage: Type.Optional(ClaimSpecSchema),
  contentType: Type.Optional(StringEnum(["kubevirt", "archive"])),
  preallocation: Type.Optional(Type.Boolean()),
  priorityClassName: Type.Optional(Type.String()),
  checkpoints: Type.Optional(Type.Array(Type.Object({ current: Type.String(), previous: Type.String() }))),
  finalCheckpoint: Type.Optional(Type.Boolean()),
});
export type DataVolumeSpec = Static<typeof DataVolumeSpecSchema>;

export const DataVolumeTemplateSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(TemplateMetadataSchema),
  spec: DataVolumeSpecSchema,
  status: Type.Optional(Type.Union([Marker(), Type.Null()])),
});
export type DataVolumeTemplate = Static<typeof DataVolumeTemplateSchema>;
