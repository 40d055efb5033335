import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { isJsonObject, type JsonObject } from "../json.js";
import type { FieldSemantics, FieldSemanticsLookup } from "../resource-type.js";
import { type FieldSet, fieldSetOf } from "./field-set.js";
import { valueAtPath } from "./object-paths.js";
import { type FieldPath, fieldElement } from "./path-element.js";

/** The only parts of metadata a client sets and therefore the only ones anybody manages. */
const USER_METADATA = new Set(["labels", "annotations", "finalizers", "ownerReferences"].map(fieldElement));
const METADATA = fieldElement("metadata");
const TYPE_FIELDS = new Set([fieldElement("apiVersion"), fieldElement("kind")]);

/** ObjectMeta's list semantics, in case the resource's lookup does not describe metadata. */
const OBJECT_META_SEMANTICS: Record<string, FieldSemantics> = {
  finalizers: { list: { type: "set" } },
  ownerReferences: { list: { type: "map", keys: ["uid"] } },
};

export function withObjectMetaSemantics(semantics: FieldSemanticsLookup): FieldSemanticsLookup {
  return (path) => {
    const declared = semantics(path);
    if (declared || path.length !== 2 || path[0] !== "metadata") return declared;
    return OBJECT_META_SEMANTICS[path[1] ?? ""];
  };
}

/** Property-name prefixes (e.g. `["status"]`) whose fields are neither owned nor conflict-checked. */
export type IgnoredFields = readonly (readonly string[])[];

function isTracked(path: FieldPath, ignored: IgnoredFields): boolean {
  const [first, second] = path;
  if (first === undefined || TYPE_FIELDS.has(first)) return false;
  if (first === METADATA && (second === undefined || !USER_METADATA.has(second))) return false;
  return !ignored.some(
    (prefix) => prefix.length <= path.length && prefix.every((name, i) => path[i] === fieldElement(name)),
  );
}

/**
 * The fields of `object` that managers can own: everything but apiVersion, kind and the
 * server-maintained parts of metadata (name, uid, resourceVersion, managedFields, ...).
 */
export function trackedFieldSetOf(
  object: JsonObject,
  semantics: FieldSemanticsLookup,
  ignored: IgnoredFields,
): FieldSet {
  return fieldSetOf(object, withObjectMetaSemantics(semantics)).filter((path) => isTracked(path, ignored));
}

/** A copy of the object without `metadata.managedFields`, so it never counts as a change. */
export function withoutManagedFields(object: JsonObject): JsonObject {
  const metadata = object.metadata;
  if (!isJsonObject(metadata) || !Object.hasOwn(metadata, "managedFields")) return object;
  const { managedFields: _, ...rest } = metadata;
  return { ...object, metadata: rest };
}

export interface FieldChanges {
  /** Set now and not before, or set before with another value. */
  changed: FieldSet;
  /** Set before and not now. */
  removed: FieldSet;
}

/**
 * What a write did to the tracked fields. A path is modified only where it is a leaf on both
 * sides: a map-list item whose fields changed is not itself changed, as upstream.
 */
export function compareTracked(
  before: JsonObject,
  after: JsonObject,
  semantics: FieldSemanticsLookup,
  ignored: IgnoredFields,
): FieldChanges {
  const withMeta = withObjectMetaSemantics(semantics);
  const beforeFields = trackedFieldSetOf(before, semantics, ignored);
  const afterFields = trackedFieldSetOf(after, semantics, ignored);
  const modified = beforeFields.filter(
    (path) =>
      afterFields.has(path) &&
      !afterFields.hasDescendants(path) &&
      !beforeFields.hasDescendants(path) &&
      !jsonEqual(valueAtPath(before, path, withMeta), valueAtPath(after, path, withMeta)),
  );
  return {
    changed: afterFields.difference(beforeFields).union(modified),
    removed: beforeFields.difference(afterFields),
  };
}
