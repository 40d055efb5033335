import type { ResourceClient } from "../../../runtime/index.js";
import {
  LOCAL_PATH_PROVISIONER,
  type PersistentVolume,
  type PersistentVolumeClaim,
  STORAGE_PROVISIONER_ANNOTATION,
  type StorageClass,
} from "../kinds.js";

/** A StorageClass of the local-path provisioner. */
export function localPathClass(
  name: string,
  volumeBindingMode: "Immediate" | "WaitForFirstConsumer",
  reclaimPolicy: "Delete" | "Retain" = "Delete",
): StorageClass {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name },
    provisioner: LOCAL_PATH_PROVISIONER,
    volumeBindingMode,
    reclaimPolicy,
  };
}

/**
 * A claim as the PV controller hands it to the provisioner: the storage-provisioner annotation
 * already set (the tests play the PV controller's part).
 */
export function handedClaim(
  name: string,
  storageClassName: string,
  extra: { annotations?: Record<string, string>; volumeMode?: "Filesystem" | "Block" } = {},
): PersistentVolumeClaim {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name,
      namespace: "default",
      annotations: { [STORAGE_PROVISIONER_ANNOTATION]: LOCAL_PATH_PROVISIONER, ...extra.annotations },
    },
    spec: {
      storageClassName,
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: "1Gi" } },
      ...(extra.volumeMode ? { volumeMode: extra.volumeMode } : {}),
    },
  };
}

/** The PV controller's part of a bind: the claim names the PV and is Bound, the PV is Bound. */
export async function bindClaim(
  claims: ResourceClient<PersistentVolumeClaim>,
  volumes: ResourceClient<PersistentVolume>,
  claim: { namespace: string; name: string },
  volumeName: string,
): Promise<void> {
  const current = await claims.get(claim);
  const named = await claims.update({ ...current, spec: { ...current.spec, volumeName } });
  await claims.updateStatus({
    ...named,
    status: { ...named.status, phase: "Bound", accessModes: named.spec?.accessModes ?? [] },
  });
  const volume = await volumes.get({ name: volumeName });
  await volumes.updateStatus({ ...volume, status: { ...volume.status, phase: "Bound" } });
}

/** The PV controller's part after the claim's deletion: the PV is Released. */
export async function releaseVolume(volumes: ResourceClient<PersistentVolume>, name: string): Promise<void> {
  const volume = await volumes.get({ name });
  await volumes.updateStatus({ ...volume, status: { ...volume.status, phase: "Released" } });
}
