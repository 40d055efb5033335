import { isJsonObject, type JsonObject } from "../json.js";

/**
 * The JSON fields of metav1.ObjectMeta and of the structs inside it. kube-apiserver round-trips
 * the metadata of custom resources (and of their embedded resources) through ObjectMeta, so
 * anything else is dropped and reported as an unknown field.
 */
const OBJECT_META_FIELDS = new Set([
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
]);

const NESTED_STRUCT_FIELDS: Record<string, Set<string>> = {
  ownerReferences: new Set(["apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"]),
  managedFields: new Set([
    "manager",
    "operation",
    "apiVersion",
    "time",
    "fieldsType",
    "fieldsV1",
    "subresource",
  ]),
};

/** Removes what ObjectMeta does not know from `metadata`, in place; returns the dropped paths below `path`. */
export function pruneObjectMeta(metadata: JsonObject, path: string): string[] {
  const pruned: string[] = [];
  for (const name of Object.keys(metadata)) {
    if (!OBJECT_META_FIELDS.has(name)) {
      pruned.push(`${path}.${name}`);
      delete metadata[name];
      continue;
    }
    const known = NESTED_STRUCT_FIELDS[name];
    const list = metadata[name];
    if (known === undefined || !Array.isArray(list)) continue;
    list.forEach((entry, position) => {
      if (!isJsonObject(entry)) return;
      for (const field of Object.keys(entry)) {
        if (known.has(field)) continue;
        pruned.push(`${path}.${name}[${position}].${field}`);
        delete entry[field];
      }
    });
  }
  return pruned;
}
