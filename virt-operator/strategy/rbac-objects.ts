import { CONTROLLER_PERMISSIONS } from "./controller-rbac.js";
import { renderAuthDelegatorBinding, renderAuthenticationReaderBinding } from "./delegated-auth-bindings.js";
import { HANDLER_PERMISSIONS } from "./handler-rbac.js";
import type { ManagedObject } from "./install-strategy.js";
import { managedMetadata } from "./object-metadata.js";
import type { ComponentPermissions, PolicyRule } from "./policy-rule.js";
import type { RenderContext } from "./render-context.js";
import { INSTANCETYPE_VIEW_ROLE, USER_ROLES } from "./user-roles.js";
import { API_PERMISSIONS } from "./virt-api-rbac.js";

const RBAC_API_VERSION = "rbac.authorization.k8s.io/v1";
const RBAC_GROUP = "rbac.authorization.k8s.io";

/** The components that run under a service account of the strategy's, with their permissions. */
export const COMPONENT_PERMISSIONS: readonly ComponentPermissions[] = [
  API_PERMISSIONS,
  CONTROLLER_PERMISSIONS,
  HANDLER_PERMISSIONS,
];

export interface RbacObjects {
  readonly clusterRoles: ManagedObject[];
  readonly clusterRoleBindings: ManagedObject[];
  readonly roles: ManagedObject[];
  readonly roleBindings: ManagedObject[];
}

export function renderRbac(context: RenderContext): RbacObjects {
  const withNamespaceRules = COMPONENT_PERMISSIONS.filter((component) => component.namespaced.length > 0);
  return {
    clusterRoles: [
      ...COMPONENT_PERMISSIONS.map((component) =>
        role(context, "ClusterRole", component.name, component.cluster, {}),
      ),
      ...USER_ROLES.map((userRole) =>
        role(context, "ClusterRole", userRole.name, userRole.rules, {
          [`rbac.authorization.k8s.io/aggregate-to-${userRole.aggregateTo}`]: "true",
        }),
      ),
      role(context, "ClusterRole", INSTANCETYPE_VIEW_ROLE.name, INSTANCETYPE_VIEW_ROLE.rules, {}),
    ],
    clusterRoleBindings: [
      ...COMPONENT_PERMISSIONS.map((component) =>
        binding(context, "ClusterRoleBinding", "ClusterRole", component),
      ),
      renderAuthDelegatorBinding(context),
      instancetypeViewBinding(context),
    ],
    roles: withNamespaceRules.map((component) =>
      role(context, "Role", component.name, component.namespaced, {}),
    ),
    roleBindings: [
      ...withNamespaceRules.map((component) => binding(context, "RoleBinding", "Role", component)),
      renderAuthenticationReaderBinding(context),
    ],
  };
}

function role(
  context: RenderContext,
  kind: "ClusterRole" | "Role",
  name: string,
  rules: readonly PolicyRule[],
  extraLabels: Record<string, string>,
): ManagedObject {
  return {
    apiVersion: RBAC_API_VERSION,
    kind,
    metadata: managedMetadata(context, name, { namespaced: kind === "Role", extraLabels }),
    rules: rules.map(renderRule),
  };
}

function binding(
  context: RenderContext,
  kind: "ClusterRoleBinding" | "RoleBinding",
  roleKind: "ClusterRole" | "Role",
  component: ComponentPermissions,
): ManagedObject {
  return {
    apiVersion: RBAC_API_VERSION,
    kind,
    metadata: managedMetadata(context, component.name, { namespaced: kind === "RoleBinding" }),
    roleRef: { apiGroup: RBAC_GROUP, kind: roleKind, name: component.name },
    // A ServiceAccount subject's apiGroup is "" (the API server's default): left out.
    subjects: [{ kind: "ServiceAccount", name: component.serviceAccount, namespace: context.namespace }],
  };
}

/** Binds the instancetype catalogue's reader role to every authenticated user, as KubeVirt does. */
function instancetypeViewBinding(context: RenderContext): ManagedObject {
  const { name, group } = INSTANCETYPE_VIEW_ROLE;
  return {
    apiVersion: RBAC_API_VERSION,
    kind: "ClusterRoleBinding",
    metadata: managedMetadata(context, name, { namespaced: false }),
    roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name },
    subjects: [{ kind: "Group", apiGroup: RBAC_GROUP, name: group }],
  };
}

/** A rule as plain JSON: fresh arrays, no undefined fields. */
export function renderRule(rule: PolicyRule): Record<string, string[]> {
  return {
    apiGroups: [...rule.apiGroups],
    resources: [...rule.resources],
    verbs: [...rule.verbs],
    ...(rule.resourceNames ? { resourceNames: [...rule.resourceNames] } : {}),
  };
}
