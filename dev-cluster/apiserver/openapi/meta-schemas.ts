import type { JsonObject } from "../json.js";

/**
 * The apimachinery schemas every group-version document refers to (object and list metadata,
 * Status, DeleteOptions, Patch) and autoscaling/v1 Scale for scale subresources. Written out by
 * hand with short descriptions so that `kubectl explain <kind>.metadata` has something to show.
 */
const meta = "io.k8s.apimachinery.pkg.apis.meta.v1";
export const objectMetaSchemaName = `${meta}.ObjectMeta`;
export const listMetaSchemaName = `${meta}.ListMeta`;
export const statusSchemaName = `${meta}.Status`;
export const deleteOptionsSchemaName = `${meta}.DeleteOptions`;
export const patchSchemaName = `${meta}.Patch`;
export const scaleSchemaName = "io.k8s.api.autoscaling.v1.Scale";

/** A JSON reference to a schema of the same document. */
export function schemaRef(name: string): JsonObject {
  return { $ref: `#/components/schemas/${name}` };
}

/** A property holding another schema: OpenAPI 3.0 does not allow siblings next to $ref, hence allOf. */
export function refProperty(name: string, description: string, extra: JsonObject = {}): JsonObject {
  return { description, allOf: [schemaRef(name)], ...extra };
}

const str = (description: string): JsonObject => ({ type: "string", description });
const int = (description: string): JsonObject => ({ type: "integer", format: "int64", description });
const time = (description: string): JsonObject => refProperty(`${meta}.Time`, description);
const stringMap = (description: string): JsonObject => ({
  type: "object",
  description,
  additionalProperties: { type: "string", default: "" },
});
const atomicStringSet = (description: string): JsonObject => ({
  type: "array",
  description,
  items: { type: "string", default: "" },
  "x-kubernetes-list-type": "set",
});
const typeMetaProperties = {
  apiVersion: str("APIVersion defines the versioned schema of this representation of an object."),
  kind: str("Kind is a string value representing the REST resource this object represents."),
};

const objectMeta: JsonObject = {
  type: "object",
  description: "ObjectMeta is metadata that all persisted resources must have.",
  properties: {
    name: str("Name must be unique within a namespace. Cannot be updated."),
    generateName: str("Optional prefix the server uses to generate a unique name when name is empty."),
    namespace: str("Namespace defines the space within which each name must be unique. Cannot be updated."),
    uid: str("UID is the unique in time and space value for this object, set by the server. Read-only."),
    resourceVersion: str("An opaque value that represents the internal version of this object. Read-only."),
    generation: int("A sequence number representing a specific generation of the desired state. Read-only."),
    creationTimestamp: time("The time this object was created, set by the server. Read-only."),
    deletionTimestamp: time("The time after which this resource will be deleted, set by the server."),
    deletionGracePeriodSeconds: int("Seconds allowed for graceful termination before removal."),
    labels: stringMap("Map of string keys and values used to organize and select objects."),
    annotations: stringMap("Unstructured key value map stored with a resource for arbitrary metadata."),
    ownerReferences: {
      type: "array",
      description: "Objects this object depends on; it is garbage collected when all owners are gone.",
      items: { default: {}, allOf: [schemaRef(`${meta}.OwnerReference`)] },
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["uid"],
      "x-kubernetes-patch-merge-key": "uid",
      "x-kubernetes-patch-strategy": "merge",
    },
    finalizers: {
      ...atomicStringSet("Must be empty before the object is deleted from the registry."),
      "x-kubernetes-patch-strategy": "merge",
    },
    managedFields: {
      type: "array",
      description: "Which field manager owns which fields; maintained by server-side apply.",
      items: { default: {}, allOf: [schemaRef(`${meta}.ManagedFieldsEntry`)] },
      "x-kubernetes-list-type": "atomic",
    },
  },
};

const ownerReference: JsonObject = {
  type: "object",
  description: "Information to identify an owning object, in the same namespace or cluster-scoped.",
  required: ["apiVersion", "kind", "name", "uid"],
  properties: {
    ...typeMetaProperties,
    name: str("Name of the referent."),
    uid: str("UID of the referent."),
    controller: {
      type: "boolean",
      description: "If true, this reference points to the managing controller.",
    },
    blockOwnerDeletion: {
      type: "boolean",
      description: "If true, the owner cannot be deleted from the key-value store until this object is.",
    },
  },
  "x-kubernetes-map-type": "atomic",
};

const managedFieldsEntry: JsonObject = {
  type: "object",
  description: "A workflow-id, a FieldSet and the group version of the resource the fieldset applies to.",
  properties: {
    manager: str("The identifier of the workflow managing these fields."),
    operation: str("The type of operation which lead to this entry: Apply or Update."),
    apiVersion: str("The version of the resource that this field set applies to."),
    time: time("When the entry was last changed."),
    fieldsType: str("The discriminator for the format of the fields; the only value is FieldsV1."),
    fieldsV1: refProperty(`${meta}.FieldsV1`, "The field set in FieldsV1 format."),
    subresource: str("The subresource that was used to update this object, if any."),
  },
};

const listMeta: JsonObject = {
  type: "object",
  description: "ListMeta describes metadata that synthetic resources must have.",
  properties: {
    resourceVersion: str("The version of the list; use it to start a watch."),
    continue: str("Set when more items are available; pass it as the continue parameter."),
    remainingItemCount: int("The number of items not included in this response, when known."),
  },
};

const statusCause: JsonObject = {
  type: "object",
  description: "More information about one reason of a failure.",
  properties: {
    reason: str("Machine-readable cause."),
    message: str("Human-readable cause."),
    field: str("The field it concerns."),
  },
};

const status: JsonObject = {
  type: "object",
  description: "Status is the return value for calls that don't return other objects.",
  properties: {
    ...typeMetaProperties,
    metadata: refProperty(listMetaSchemaName, "Standard list metadata.", { default: {} }),
    status: str("Status of the operation: Success or Failure."),
    message: str("A human-readable description of the status of this operation."),
    reason: str("A machine-readable description of why this operation is in the Failure status."),
    code: { type: "integer", format: "int32", description: "Suggested HTTP return code for this status." },
    details: {
      type: "object",
      description: "Extended data associated with the reason.",
      properties: {
        name: str("The name of the resource concerned."),
        group: str("The group of the resource concerned."),
        kind: str("The kind of the resource concerned."),
        uid: str("The UID of the resource concerned."),
        causes: { type: "array", items: { default: {}, allOf: [schemaRef(`${meta}.StatusCause`)] } },
        retryAfterSeconds: { type: "integer", format: "int32" },
      },
    },
  },
  "x-kubernetes-group-version-kind": [{ group: "", version: "v1", kind: "Status" }],
};

const deleteOptions: JsonObject = {
  type: "object",
  description: "DeleteOptions may be provided when deleting an API object.",
  properties: {
    ...typeMetaProperties,
    dryRun: atomicStringSet("When present, the modifications are not persisted. Valid value: All."),
    gracePeriodSeconds: int("The duration in seconds before the object should be deleted."),
    propagationPolicy: str(
      "Whether and how garbage collection is performed: Orphan, Background or Foreground.",
    ),
    orphanDependents: { type: "boolean", description: "Deprecated: use propagationPolicy." },
    preconditions: {
      type: "object",
      description: "Must be fulfilled before a deletion is carried out.",
      properties: { resourceVersion: str("The target resourceVersion."), uid: str("The target UID.") },
    },
  },
};

const scale: JsonObject = {
  type: "object",
  description: "Scale represents a scaling request for a resource.",
  properties: {
    ...typeMetaProperties,
    metadata: refProperty(objectMetaSchemaName, "Standard object metadata.", { default: {} }),
    spec: {
      type: "object",
      description: "The desired scale of the object.",
      properties: {
        replicas: { type: "integer", format: "int32", description: "Desired number of instances." },
      },
    },
    status: {
      type: "object",
      description: "The current status of the scale.",
      required: ["replicas"],
      properties: {
        replicas: { type: "integer", format: "int32", description: "Actual number of observed instances." },
        selector: str("Label query over pods that should match the replicas count, in string form."),
      },
    },
  },
  "x-kubernetes-group-version-kind": [{ group: "autoscaling", version: "v1", kind: "Scale" }],
};

/** Every shared schema by name; documents include only those they reference. */
export const sharedSchemas: Readonly<Record<string, JsonObject>> = {
  [objectMetaSchemaName]: objectMeta,
  [`${meta}.OwnerReference`]: ownerReference,
  [`${meta}.ManagedFieldsEntry`]: managedFieldsEntry,
  [`${meta}.FieldsV1`]: { type: "object", description: "FieldsV1 stores a set of fields as a JSON trie." },
  [`${meta}.Time`]: { type: "string", format: "date-time", description: "An RFC 3339 timestamp." },
  [listMetaSchemaName]: listMeta,
  [statusSchemaName]: status,
  [`${meta}.StatusCause`]: statusCause,
  [deleteOptionsSchemaName]: deleteOptions,
  [patchSchemaName]: { type: "object", description: "The body of a PATCH request (any patch type)." },
  [scaleSchemaName]: scale,
};
