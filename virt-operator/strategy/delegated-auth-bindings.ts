import type { ManagedObject } from "./install-strategy.js";
import { managedMetadata } from "./object-metadata.js";
import type { RenderContext } from "./render-context.js";
import { API_SERVICE_ACCOUNT } from "./service-accounts.js";

/**
 * What every aggregated API server is given, as upstream's sample-apiserver is: the
 * ClusterRole `system:auth-delegator` (TokenReviews and SubjectAccessReviews, to check its
 * callers) and, in kube-system, the Role `extension-apiserver-authentication-reader` (the
 * front-proxy settings virt-api trusts X-Remote-User from). Both roles come with Kubernetes
 * (and with the dev cluster's API server): the strategy binds them, never renders them.
 */

const RBAC_API_VERSION = "rbac.authorization.k8s.io/v1";
const RBAC_GROUP = "rbac.authorization.k8s.io";
export const AUTH_DELEGATOR_CLUSTER_ROLE = "system:auth-delegator";
export const AUTHENTICATION_READER_ROLE = "extension-apiserver-authentication-reader";
export const AUTHENTICATION_READER_NAMESPACE = "kube-system";

export function renderAuthDelegatorBinding(context: RenderContext): ManagedObject {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: "ClusterRoleBinding",
    metadata: managedMetadata(context, `${API_SERVICE_ACCOUNT}-auth-delegator`),
    roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name: AUTH_DELEGATOR_CLUSTER_ROLE },
    subjects: [{ kind: "ServiceAccount", name: API_SERVICE_ACCOUNT, namespace: context.namespace }],
  };
}

export function renderAuthenticationReaderBinding(context: RenderContext): ManagedObject {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: "RoleBinding",
    metadata: {
      ...managedMetadata(context, `${API_SERVICE_ACCOUNT}-auth-reader`),
      namespace: AUTHENTICATION_READER_NAMESPACE,
    },
    roleRef: { apiGroup: RBAC_GROUP, kind: "Role", name: AUTHENTICATION_READER_ROLE },
    subjects: [{ kind: "ServiceAccount", name: API_SERVICE_ACCOUNT, namespace: context.namespace }],
  };
}
