import type { JsonObject } from "../json.js";
import { childObject, defaultString, objectAt } from "./json-read.js";

/** core/v1 SetDefaults_PersistentVolumeClaim(Spec): a Filesystem claim, Pending until bound. */
export function defaultPersistentVolumeClaim(claim: JsonObject): void {
  defaultString(childObject(claim, "spec"), "volumeMode", "Filesystem");
  defaultString(childObject(claim, "status"), "phase", "Pending");
}

/**
 * core/v1 SetDefaults_PersistentVolume: Retain, Filesystem, and Pending until the PV controller
 * first looks at it (then Available); a hostPath source gets its unset type as in pods.
 */
export function defaultPersistentVolume(volume: JsonObject): void {
  const spec = childObject(volume, "spec");
  defaultString(spec, "persistentVolumeReclaimPolicy", "Retain");
  defaultString(spec, "volumeMode", "Filesystem");
  const hostPath = objectAt(spec, "hostPath");
  if (hostPath && hostPath.type === undefined) hostPath.type = "";
  defaultString(childObject(volume, "status"), "phase", "Pending");
}

/** storage/v1 SetDefaults_StorageClass. */
export function defaultStorageClass(storageClass: JsonObject): void {
  defaultString(storageClass, "reclaimPolicy", "Delete");
  defaultString(storageClass, "volumeBindingMode", "Immediate");
}
