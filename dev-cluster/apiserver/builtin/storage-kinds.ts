import { StorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import { PersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import { PersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { BuiltinKind } from "./builtin-kind.js";
import {
  defaultPersistentVolume,
  defaultPersistentVolumeClaim,
  defaultStorageClass,
} from "./storage-defaults.js";
import { persistentVolumeClaimTable, persistentVolumeTable, storageClassTable } from "./storage-tables.js";
import {
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validateStorageClass,
} from "./storage-validation.js";

/**
 * The storage API: core/v1 PersistentVolume and PersistentVolumeClaim, storage.k8s.io/v1
 * StorageClass. Binding them is the PV controller's (dev-cluster/controllers/persistent-volume/);
 * the default class and the protection finalizers are admission's (apiserver/admission/).
 */
export const storageKinds: BuiltinKind[] = [
  {
    group: "",
    version: "v1",
    kind: "PersistentVolumeClaim",
    plural: "persistentvolumeclaims",
    namespaced: true,
    shortNames: ["pvc"],
    statusSubresource: true,
    model: "V1PersistentVolumeClaim",
    validator: PersistentVolumeClaim,
    nameRule: "subdomain",
    description: "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
    applyDefaults: defaultPersistentVolumeClaim,
    validate: validatePersistentVolumeClaim,
    table: persistentVolumeClaimTable,
  },
  {
    group: "",
    version: "v1",
    kind: "PersistentVolume",
    plural: "persistentvolumes",
    namespaced: false,
    shortNames: ["pv"],
    statusSubresource: true,
    model: "V1PersistentVolume",
    validator: PersistentVolume,
    // ValidatePersistentVolumeName: any path segment.
    nameRule: "pathSegment",
    description:
      "PersistentVolume (PV) is a storage resource provisioned by an administrator. It is analogous to a node. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes",
    applyDefaults: defaultPersistentVolume,
    validate: validatePersistentVolume,
    table: persistentVolumeTable,
  },
  {
    group: "storage.k8s.io",
    version: "v1",
    kind: "StorageClass",
    plural: "storageclasses",
    namespaced: false,
    shortNames: ["sc"],
    model: "V1StorageClass",
    validator: StorageClass,
    nameRule: "subdomain",
    description:
      "StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.\n\nStorageClasses are non-namespaced; the name of the storage class according to etcd is in ObjectMeta.Name.",
    applyDefaults: defaultStorageClass,
    validate: validateStorageClass,
    table: storageClassTable,
  },
];
