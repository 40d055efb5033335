import type { JsonObject } from "../json.js";
import { stringAt } from "./json-read.js";

/** How kube reads an object's StorageClass and a class's default mark (shared by tables and admission). */

/** The deprecated annotation that names a claim's or volume's class; it wins over the field, as in kube. */
export const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";

const defaultClassAnnotations = [
  "storageclass.kubernetes.io/is-default-class",
  "storageclass.beta.kubernetes.io/is-default-class",
];

/** helper.GetPersistentVolume(Claim)Class: "" when neither the annotation nor the field is set. */
export function storageClassOf(object: JsonObject): string {
  return (
    stringAt(object, "metadata", "annotations", betaStorageClassAnnotation) ??
    stringAt(object, "spec", "storageClassName") ??
    ""
  );
}

/** storageutil.IsDefaultAnnotation. */
export function isDefaultStorageClass(storageClass: JsonObject): boolean {
  return defaultClassAnnotations.some(
    (key) => stringAt(storageClass, "metadata", "annotations", key) === "true",
  );
}
