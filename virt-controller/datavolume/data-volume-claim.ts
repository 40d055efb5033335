// The claim a DataVolume fills, as CDI renders it: `spec.pvc` taken as it is, `spec.storage` completed
// the way CDI's StorageProfile would for a local volume (ReadWriteOnce, Filesystem) with room for the
// file system added to a Filesystem claim (CDI's filesystemOverhead), so that the disk of the size asked
// for fits. The claim has the DataVolume's name and is owned by it: deleting the DataVolume deletes it.
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import {
  CDI_FILESYSTEM_OVERHEAD,
  CDI_GROUP,
  CDI_VERSION,
  Quantity,
  type StoredDataVolume,
} from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";

const MIB = 1024 * 1024;

/** The label CDI puts on what it makes. */
export const CDI_APP_LABEL = { app: "containerized-data-importer" } as const;

/** Why a DataVolume cannot get a claim (its spec says neither size nor how). */
export class DataVolumeSpecError extends Error {
  override readonly name = "DataVolumeSpecError";
}

/** The size the disk must have: what the DataVolume asks for, in bytes. */
export function requestedBytes(dv: Frozen<StoredDataVolume>): number {
  const claimSpec = dv.spec.pvc ?? dv.spec.storage;
  if (claimSpec === undefined) throw new DataVolumeSpecError("spec.pvc or spec.storage is required");
  const size = claimSpec.resources?.requests?.storage;
  const quantity = size === undefined ? undefined : Quantity.tryParse(String(size));
  if (quantity === undefined || quantity.sign() <= 0) {
    throw new DataVolumeSpecError("resources.requests.storage must be a positive quantity");
  }
  return quantity.value();
}

export function renderClaim(dv: Frozen<StoredDataVolume>): IPersistentVolumeClaim {
  const bytes = requestedBytes(dv);
  const fromStorage = dv.spec.pvc === undefined;
  const claimSpec = dv.spec.pvc ?? dv.spec.storage ?? {};
  const volumeMode = claimSpec.volumeMode ?? "Filesystem";
  const storage =
    fromStorage && volumeMode === "Filesystem"
      ? String(Math.ceil(Math.ceil(bytes / MIB) * MIB * (1 + CDI_FILESYSTEM_OVERHEAD)))
      : String(claimSpec.resources?.requests?.storage ?? bytes);
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name: dv.metadata?.name ?? "",
      namespace: dv.metadata?.namespace ?? "",
      labels: { ...CDI_APP_LABEL },
      ownerReferences: [
        {
          apiVersion: `${CDI_GROUP}/${CDI_VERSION}`,
          kind: "DataVolume",
          name: dv.metadata?.name ?? "",
          uid: dv.metadata?.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      accessModes: [...(claimSpec.accessModes ?? ["ReadWriteOnce"])],
      resources: { requests: { storage } },
      volumeMode,
      ...(claimSpec.storageClassName !== undefined ? { storageClassName: claimSpec.storageClassName } : {}),
      ...(claimSpec.volumeName ? { volumeName: claimSpec.volumeName } : {}),
      ...(claimSpec.selector ? { selector: structuredClone(claimSpec.selector) } : {}),
    },
  } as IPersistentVolumeClaim;
}
