import type { Frozen } from "../../runtime/index.js";
import {
  HOSTNAME_LABEL,
  LOCAL_PATH_PROVISIONER,
  type PersistentVolume,
  type PersistentVolumeClaim,
  PROVISIONED_BY_ANNOTATION,
  type StorageClass,
} from "./kinds.js";

export interface VolumeRequest {
  claim: Frozen<PersistentVolumeClaim>;
  storageClass: Frozen<StorageClass>;
  /** The volume's directory on the node. */
  path: string;
  /** The node's `kubernetes.io/hostname` label: where the directory is. */
  hostname: string;
}

/** The PV of a claim: named after its uid, so that creating it twice finds the first. */
export function persistentVolumeName(claim: Frozen<PersistentVolumeClaim>): string {
  return `pvc-${claim.metadata?.uid ?? ""}`;
}

/**
 * The PV a dynamically provisioned claim gets, as an external provisioner writes it: pre-bound to
 * the claim (`claimRef` with uid and resourceVersion, which the PV controller completes), the
 * class's reclaim policy and mount options, the claim's request as its capacity (recorded, not
 * enforced: a directory has no size), and node affinity to the node that holds the directory.
 */
export function renderPersistentVolume(request: VolumeRequest): PersistentVolume {
  const { claim, storageClass } = request;
  const storage = claim.spec?.resources?.requests?.storage;
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: {
      name: persistentVolumeName(claim),
      annotations: { [PROVISIONED_BY_ANNOTATION]: LOCAL_PATH_PROVISIONER },
    },
    spec: {
      ...(storage === undefined ? {} : { capacity: { storage } }),
      accessModes: [...(claim.spec?.accessModes ?? [])],
      volumeMode: claim.spec?.volumeMode ?? "Filesystem",
      persistentVolumeReclaimPolicy: storageClass.reclaimPolicy ?? "Delete",
      storageClassName: storageClass.metadata?.name ?? "",
      ...(storageClass.mountOptions?.length ? { mountOptions: [...storageClass.mountOptions] } : {}),
      claimRef: {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        namespace: claim.metadata?.namespace ?? "",
        name: claim.metadata?.name ?? "",
        uid: claim.metadata?.uid ?? "",
        resourceVersion: claim.metadata?.resourceVersion ?? "",
      },
      local: { path: request.path },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: HOSTNAME_LABEL, operator: "In", values: [request.hostname] }] },
          ],
        },
      },
    },
  };
}
