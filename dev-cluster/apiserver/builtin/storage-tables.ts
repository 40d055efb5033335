import type { JsonObject } from "../json.js";
import type { TableConvertor } from "../resource-type.js";
import { arrayAt, booleanAt, stringAt, valueAt } from "./json-read.js";
import { isDefaultStorageClass, storageClassOf } from "./storage-classes.js";
import { age, ageColumn, column, nameColumn, nameOf, wideColumn } from "./table-format.js";

/** `kubectl get pv,pvc,sc` as kube 1.32's printers print them. */

/** helper.GetAccessModesAsString: a fixed order, each mode once. */
export function accessModesText(modes: unknown[]): string {
  const present = new Set(modes);
  const short: [string, string][] = [
    ["ReadWriteOnce", "RWO"],
    ["ReadOnlyMany", "ROX"],
    ["ReadWriteMany", "RWX"],
    ["ReadWriteOncePod", "RWOP"],
  ];
  return short
    .filter(([mode]) => present.has(mode))
    .map(([, abbreviation]) => abbreviation)
    .join(",");
}

/** Deleted objects show Terminating whatever their phase. */
function phaseOf(object: JsonObject): string {
  if (stringAt(object, "metadata", "deletionTimestamp") !== undefined) return "Terminating";
  return stringAt(object, "status", "phase") ?? "";
}

const quantityText = (value: unknown): string => (typeof value === "string" ? value : "");

const volumeAttributesClass = (object: JsonObject): string =>
  stringAt(object, "spec", "volumeAttributesClassName") ?? "<unset>";

const volumeMode = (object: JsonObject): string => stringAt(object, "spec", "volumeMode") ?? "<unset>";

export const persistentVolumeTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Capacity", "capacity is the description of the persistent volume's resources and capacity."),
    column("Access Modes", "accessModes contains all ways the volume can be mounted."),
    column(
      "Reclaim Policy",
      "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.",
    ),
    column("Status", "phase indicates if a volume is available, bound to a claim, or released by a claim."),
    column(
      "Claim",
      "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.",
    ),
    column("StorageClass", "StorageClass of the pv"),
    column("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
    column(
      "Reason",
      "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.",
    ),
    ageColumn,
    wideColumn(
      "VolumeMode",
      "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.",
    ),
  ],
  cells: (volume, now) => {
    const claimNamespace = stringAt(volume, "spec", "claimRef", "namespace");
    const claimName = stringAt(volume, "spec", "claimRef", "name");
    const claimed = valueAt(volume, "spec", "claimRef") !== undefined;
    return [
      nameOf(volume),
      quantityText(valueAt(volume, "spec", "capacity", "storage")),
      accessModesText(arrayAt(volume, "spec", "accessModes")),
      stringAt(volume, "spec", "persistentVolumeReclaimPolicy") ?? "",
      phaseOf(volume),
      claimed ? `${claimNamespace ?? ""}/${claimName ?? ""}` : "",
      storageClassOf(volume),
      volumeAttributesClass(volume),
      stringAt(volume, "status", "reason") ?? "",
      age(volume, now),
      volumeMode(volume),
    ];
  },
};

export const persistentVolumeClaimTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Status", "phase represents the current phase of PersistentVolumeClaim."),
    column("Volume", "volumeName is the binding reference to the PersistentVolume backing this claim."),
    column("Capacity", "capacity represents the actual resources of the underlying volume."),
    column("Access Modes", "accessModes contains the actual access modes the volume backing the PVC has."),
    column("StorageClass", "StorageClass of the pvc"),
    column("VolumeAttributesClass", "VolumeAttributesClass of the pvc"),
    ageColumn,
    wideColumn("VolumeMode", "volumeMode defines what type of volume is required by the claim."),
  ],
  cells: (claim, now) => {
    const volumeName = stringAt(claim, "spec", "volumeName") ?? "";
    // Capacity and modes are the bound volume's, so they stay empty until the claim names one.
    const bound = volumeName !== "";
    return [
      nameOf(claim),
      phaseOf(claim),
      volumeName,
      bound ? quantityText(valueAt(claim, "status", "capacity", "storage")) : "",
      bound ? accessModesText(arrayAt(claim, "status", "accessModes")) : "",
      storageClassOf(claim),
      volumeAttributesClass(claim),
      age(claim, now),
      volumeMode(claim),
    ];
  },
};

export const storageClassTable: TableConvertor = {
  columns: [
    nameColumn,
    column("Provisioner", "provisioner indicates the type of the provisioner."),
    column(
      "ReclaimPolicy",
      "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.",
    ),
    column(
      "VolumeBindingMode",
      "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.",
    ),
    column(
      "AllowVolumeExpansion",
      "allowVolumeExpansion shows whether the storage class allow volume expand.",
    ),
    ageColumn,
  ],
  cells: (storageClass, now) => [
    isDefaultStorageClass(storageClass) ? `${nameOf(storageClass)} (default)` : nameOf(storageClass),
    stringAt(storageClass, "provisioner") ?? "",
    stringAt(storageClass, "reclaimPolicy") ?? "Delete",
    stringAt(storageClass, "volumeBindingMode") ?? "Immediate",
    booleanAt(storageClass, "allowVolumeExpansion") ?? false,
    age(storageClass, now),
  ],
};
