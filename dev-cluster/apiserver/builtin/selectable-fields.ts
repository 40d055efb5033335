import type { JsonObject, JsonValue } from "../json.js";
import { valueAt } from "./json-read.js";

/**
 * The field-selector values of the built-in kinds (their GetAttrs/field label conversions), besides
 * metadata.name and metadata.namespace. An unset field reads as "" (so `spec.nodeName=` finds
 * unscheduled pods), and every key is present even for an empty object: the caller learns the
 * supported field names by calling with `{ metadata: {} }`.
 */
export type SelectableFields = (object: JsonObject) => Record<string, string>;

function text(value: JsonValue | undefined): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

/** Builds a selectable-fields function from field names and where each reads its value. */
function fieldsAt(paths: Readonly<Record<string, readonly string[]>>): SelectableFields {
  return (object) =>
    Object.fromEntries(Object.entries(paths).map(([field, path]) => [field, text(valueAt(object, ...path))]));
}

const dotted = (...fields: string[]): Record<string, readonly string[]> =>
  Object.fromEntries(fields.map((field) => [field, field.split(".")]));

const podPathFields = fieldsAt(
  dotted(
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
  ),
);

export const podFields: SelectableFields = (object) => ({
  ...podPathFields(object),
  // A bool field: unset is false.
  "spec.hostNetwork": valueAt(object, "spec", "hostNetwork") === true ? "true" : "false",
});

const involvedObjectFields = [
  "kind",
  "namespace",
  "name",
  "uid",
  "apiVersion",
  "resourceVersion",
  "fieldPath",
];

export const coreEventFields: SelectableFields = fieldsAt({
  ...Object.fromEntries(involvedObjectFields.map((f) => [`involvedObject.${f}`, ["involvedObject", f]])),
  reason: ["reason"],
  reportingComponent: ["reportingComponent"],
  source: ["source", "component"],
  type: ["type"],
});

/** events.k8s.io/v1 names the same event fields differently (regarding, reportingController). */
export const eventsV1Fields: SelectableFields = fieldsAt({
  ...Object.fromEntries(involvedObjectFields.map((f) => [`regarding.${f}`, ["regarding", f]])),
  reason: ["reason"],
  reportingController: ["reportingController"],
  type: ["type"],
});

export const secretFields: SelectableFields = fieldsAt(dotted("type"));

export const nodeFields: SelectableFields = (object) => ({
  "spec.unschedulable": valueAt(object, "spec", "unschedulable") === true ? "true" : "false",
});

export const namespaceFields: SelectableFields = fieldsAt(dotted("status.phase"));

export const replicaSetFields: SelectableFields = (object) => ({
  "status.replicas": text(valueAt(object, "status", "replicas") ?? 0),
});

export const noFields: SelectableFields = () => ({});
