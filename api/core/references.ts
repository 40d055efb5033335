import { type Static, Type } from "@sinclair/typebox";

/** core/v1 LocalObjectReference */
export const LocalObjectReferenceSchema = Type.Object(
  { name: Type.Optional(Type.String()) },
  { "x-kubernetes-map-type": "atomic" },
);
export type LocalObjectReference = Static<typeof LocalObjectReferenceSchema>;

/** core/v1 PersistentVolumeClaimVolumeSource */
export const PersistentVolumeClaimVolumeSourceProperties = {
  claimName: Type.String(),
  readOnly: Type.Optional(Type.Boolean()),
};
