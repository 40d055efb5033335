/**
 * core/v1 kinds many controllers read or write, in their wire JSON form. Pod, Node and the storage kinds come from
 * kubernetes-models (types only: nothing of it loads at run time); a Namespace is hardly more than
 * its metadata. Kinds the runtime uses itself sit beside their user with a narrower type (Event,
 * Lease, Secret).
 */

import type { IStorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import type { INode } from "kubernetes-models/v1/Node";
import type { IPersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPod } from "kubernetes-models/v1/Pod";
import type { KubeObject } from "./kube-object.js";
import { defineKind } from "./resource-kind.js";

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: "Active" | "Terminating" };
}

export const podKind = defineKind<IPod>({
  group: "",
  version: "v1",
  kind: "Pod",
  plural: "pods",
  namespaced: true,
});

export const nodeKind = defineKind<INode>({
  group: "",
  version: "v1",
  kind: "Node",
  plural: "nodes",
  namespaced: false,
});

export const namespaceKind = defineKind<Namespace>({
  group: "",
  version: "v1",
  kind: "Namespace",
  plural: "namespaces",
  namespaced: false,
});

export const persistentVolumeClaimKind = defineKind<IPersistentVolumeClaim>({
  group: "",
  version: "v1",
  kind: "PersistentVolumeClaim",
  plural: "persistentvolumeclaims",
  namespaced: true,
});

export const persistentVolumeKind = defineKind<IPersistentVolume>({
  group: "",
  version: "v1",
  kind: "PersistentVolume",
  plural: "persistentvolumes",
  namespaced: false,
});

export const storageClassKind = defineKind<IStorageClass>({
  group: "storage.k8s.io",
  version: "v1",
  kind: "StorageClass",
  plural: "storageclasses",
  namespaced: false,
});
