import type { MessageTables } from "./message-schema.js";

/**
 * authorization.k8s.io/v1 access and rules reviews, what `kubectl auth can-i` sends.
 * Notation in message-schema.ts. Field numbers are upstream's generated.proto (k8s.io/api v0.32); JSON names,
 * pointers (`*`) and fields without omitempty (`keepZero`) follow the Go types' struct tags. SubjectAccessReviewSpec's
 * `extra` (5, a map of string lists) is not decoded: kubectl never sends it, and Go clients send it as JSON.
 */
export const authorizationMessages: MessageTables = {
  SubjectAccessReview: {
    1: "metadata ObjectMeta",
    2: "spec SubjectAccessReviewSpec",
    3: "status SubjectAccessReviewStatus",
  },
  LocalSubjectAccessReview: {
    1: "metadata ObjectMeta",
    2: "spec SubjectAccessReviewSpec",
    3: "status SubjectAccessReviewStatus",
  },
  SelfSubjectAccessReview: {
    1: "metadata ObjectMeta",
    2: "spec SelfSubjectAccessReviewSpec",
    3: "status SubjectAccessReviewStatus",
  },
  SelfSubjectRulesReview: {
    1: "metadata ObjectMeta",
    2: "spec SelfSubjectRulesReviewSpec",
  },
  SubjectAccessReviewSpec: {
    1: "resourceAttributes ResourceAttributes",
    2: "nonResourceAttributes NonResourceAttributes",
    3: "user string",
    4: "groups []string",
    6: "uid string",
  },
  SelfSubjectAccessReviewSpec: {
    1: "resourceAttributes ResourceAttributes",
    2: "nonResourceAttributes NonResourceAttributes",
  },
  SelfSubjectRulesReviewSpec: {
    1: "namespace string",
  },
  ResourceAttributes: {
    1: "namespace string",
    2: "verb string",
    3: "group string",
    4: "version string",
    5: "resource string",
    6: "subresource string",
    7: "name string",
    8: "fieldSelector FieldSelectorAttributes",
    9: "labelSelector LabelSelectorAttributes",
  },
  NonResourceAttributes: {
    1: "path string",
    2: "verb string",
  },
  FieldSelectorAttributes: {
    1: "rawSelector string",
    2: "requirements []FieldSelectorRequirement",
  },
  FieldSelectorRequirement: {
    1: "key string",
    2: "operator string",
    3: "values []string",
  },
  LabelSelectorAttributes: {
    1: "rawSelector string",
    2: "requirements []LabelSelectorRequirement",
  },
  SubjectAccessReviewStatus: {
    1: "allowed bool keepZero",
    2: "reason string",
    3: "evaluationError string",
    4: "denied bool",
  },
};
