import type { MessageTables } from "./message-schema.js";

/**
 * k8s.io/apimachinery meta/v1: object metadata, label selectors and conditions.
 * Notation in message-schema.ts. Field numbers are upstream's generated.proto (k8s.io/api v0.32); JSON names,
 * pointers (`*`) and fields without omitempty (`keepZero`) follow the Go types' struct tags.
 */
export const metaMessages: MessageTables = {
  ObjectMeta: {
    1: "name string",
    2: "generateName string",
    3: "namespace string",
    4: "selfLink string",
    5: "uid string",
    6: "resourceVersion string",
    7: "generation int64",
    8: "creationTimestamp Time",
    9: "deletionTimestamp Time",
    10: "deletionGracePeriodSeconds *int64",
    11: "labels map[string]",
    12: "annotations map[string]",
    13: "ownerReferences []OwnerReference",
    14: "finalizers []string",
    17: "managedFields []ManagedFieldsEntry",
  },
  OwnerReference: {
    1: "kind string keepZero",
    3: "name string keepZero",
    4: "uid string keepZero",
    5: "apiVersion string keepZero",
    6: "controller *bool",
    7: "blockOwnerDeletion *bool",
  },
  ManagedFieldsEntry: {
    1: "manager string",
    2: "operation string",
    3: "apiVersion string",
    4: "time Time",
    6: "fieldsType string",
    7: "fieldsV1 FieldsV1",
    8: "subresource string",
  },
  Condition: {
    1: "type string keepZero",
    2: "status string keepZero",
    3: "observedGeneration int64",
    4: "lastTransitionTime Time",
    5: "reason string keepZero",
    6: "message string keepZero",
  },
  LabelSelector: {
    1: "matchLabels map[string]",
    2: "matchExpressions []LabelSelectorRequirement",
  },
  LabelSelectorRequirement: {
    1: "key string keepZero",
    2: "operator string keepZero",
    3: "values []string",
  },
};
