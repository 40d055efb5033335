/**
 * The kinds the local-path provisioner reads and writes, described for the runtime. The object
 * types come from kubernetes-models (types only: nothing of it is loaded at run time).
 */

import type { IStorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import type { INode } from "kubernetes-models/v1/Node";
import type { IPersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";

// The core kinds are declared once, in the runtime.
export {
  nodeKind,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  storageClassKind,
} from "../../runtime/index.js";

export type Node = INode;
export type PersistentVolume = IPersistentVolume;
export type PersistentVolumeClaim = IPersistentVolumeClaim;
export type StorageClass = IStorageClass;

/** The provisioner's name: StorageClasses that name it are provisioned here. */
export const LOCAL_PATH_PROVISIONER = "kubevirt-ts.io/local-path";

/** Set by the PV controller on a claim it hands to an external provisioner (and its beta twin). */
export const STORAGE_PROVISIONER_ANNOTATION = "volume.kubernetes.io/storage-provisioner";
export const BETA_STORAGE_PROVISIONER_ANNOTATION = "volume.beta.kubernetes.io/storage-provisioner";
/** Set by the scheduler on a WaitForFirstConsumer claim: the node its first pod goes to. */
export const SELECTED_NODE_ANNOTATION = "volume.kubernetes.io/selected-node";
/** On a provisioned PV: who made it, so who deletes its data. */
export const PROVISIONED_BY_ANNOTATION = "pv.kubernetes.io/provisioned-by";
export const HOSTNAME_LABEL = "kubernetes.io/hostname";
