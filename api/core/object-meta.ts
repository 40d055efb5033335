import { type Static, Type } from "@sinclair/typebox";
import { Int64, NullableTimestamp, PreservingObject, StringMap, Timestamp } from "../schema/kube-types.js";

/**
 * metav1.ObjectMeta. The API server owns its schema: in a CRD the top-level `metadata` is only
 * `type: object`, and a template's metadata keeps unknown fields (as KubeVirt declares it).
 */

export const OwnerReferenceSchema = Type.Object({
  apiVersion: Type.String(),
  kind: Type.String(),
  name: Type.String(),
  uid: Type.String(),
  controller: Type.Optional(Type.Boolean()),
  blockOwnerDeletion: Type.Optional(Type.Boolean()),
});
export type OwnerReference = Static<typeof OwnerReferenceSchema>;

const objectMetaProperties = {
  name: Type.Optional(Type.String()),
  generateName: Type.Optional(Type.String()),
  namespace: Type.Optional(Type.String()),
  uid: Type.Optional(Type.String()),
  resourceVersion: Type.Optional(Type.String()),
  generation: Type.Optional(Int64()),
  creationTimestamp: Type.Optional(NullableTimestamp()),
  deletionTimestamp: Type.Optional(NullableTimestamp()),
  deletionGracePeriodSeconds: Type.Optional(Int64()),
  labels: Type.Optional(StringMap()),
  annotations: Type.Optional(StringMap()),
  ownerReferences: Type.Optional(Type.Array(OwnerReferenceSchema)),
  finalizers: Type.Optional(Type.Array(Type.String())),
};

/** The top-level metadata of a kubevirt.io object (emitted to the CRD as `type: object`). */
export const ObjectMetaSchema = PreservingObject(objectMetaProperties);
export type ObjectMeta = Static<typeof ObjectMetaSchema>;

/** `spec.template.metadata`: nullable, unknown fields preserved (KubeVirt's `+kubebuilder:pruning:PreserveUnknownFields`). */
export const TemplateMetadataSchema = Type.Union([PreservingObject(objectMetaProperties), Type.Null()]);

/** metav1.Time as read back from the API server. */
export const TimeSchema = Timestamp();
