/** rbac.authorization.k8s.io/v1 PolicyRule, as the strategy writes it (no wildcards, no URLs). */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
}

/**
 * What one component may do: `cluster` rules go into its ClusterRole (bound cluster-wide),
 * `namespaced` rules into a Role in the install namespace (leader election, for instance).
 */
export interface ComponentPermissions {
  /** Name of the ClusterRole, Role and their bindings (KubeVirt names them after the account). */
  readonly name: string;
  readonly serviceAccount: string;
  readonly cluster: readonly PolicyRule[];
  readonly namespaced: readonly PolicyRule[];
}

export const CORE_GROUP = "";
export const KUBEVIRT_GROUP = "kubevirt.io";
export const SUBRESOURCES_GROUP = "subresources.kubevirt.io";
export const COORDINATION_GROUP = "coordination.k8s.io";
