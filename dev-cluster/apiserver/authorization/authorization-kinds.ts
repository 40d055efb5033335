import { LocalSubjectAccessReview } from "kubernetes-models/authorization.k8s.io/v1/LocalSubjectAccessReview";
import { SelfSubjectAccessReview } from "kubernetes-models/authorization.k8s.io/v1/SelfSubjectAccessReview";
import { SelfSubjectRulesReview } from "kubernetes-models/authorization.k8s.io/v1/SelfSubjectRulesReview";
import { SubjectAccessReview } from "kubernetes-models/authorization.k8s.io/v1/SubjectAccessReview";
import { type BuiltinKind, resourceTypeOf } from "../builtin/builtin-kind.js";
import type { ResourceType } from "../resource-type.js";

export const AUTHORIZATION_GROUP = "authorization.k8s.io";

const review = {
  group: AUTHORIZATION_GROUP,
  version: "v1",
  nameRule: "subdomain",
  // Create-only: nothing is stored, the POST answers with the decision.
  verbs: ["create"],
} as const;

const kinds: BuiltinKind[] = [
  {
    ...review,
    kind: "LocalSubjectAccessReview",
    plural: "localsubjectaccessreviews",
    namespaced: true,
    model: "V1LocalSubjectAccessReview",
    validator: LocalSubjectAccessReview,
    description:
      "LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.",
  },
  {
    ...review,
    kind: "SelfSubjectAccessReview",
    plural: "selfsubjectaccessreviews",
    namespaced: false,
    model: "V1SelfSubjectAccessReview",
    validator: SelfSubjectAccessReview,
    description:
      'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
  },
  {
    ...review,
    kind: "SelfSubjectRulesReview",
    plural: "selfsubjectrulesreviews",
    namespaced: false,
    model: "V1SelfSubjectRulesReview",
    validator: SelfSubjectRulesReview,
    description:
      "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.",
  },
  {
    ...review,
    kind: "SubjectAccessReview",
    plural: "subjectaccessreviews",
    namespaced: false,
    model: "V1SubjectAccessReview",
    validator: SubjectAccessReview,
    description: "SubjectAccessReview checks whether or not a user or group can perform an action.",
  },
];

/** authorization.k8s.io/v1: the access and rules reviews, served as create-only resources. */
export function authorizationResourceTypes(): ResourceType[] {
  return kinds.map(resourceTypeOf);
}
