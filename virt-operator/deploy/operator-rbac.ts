import type { KubeVirt } from "../../api/index.js";
import type { IssuedTrust, ManagedObject, OperatorIdentity } from "../strategy/install-strategy.js";
import type { PolicyRule } from "../strategy/policy-rule.js";
import { renderStrategy } from "../strategy/render-strategy.js";
import { OPERATOR_CLUSTER_RULES, OPERATOR_NAMESPACE_RULES } from "./operator-permissions.js";
import { unionOfRules } from "./rule-union.js";

/**
 * virt-operator's own permissions. On a real cluster RBAC lets nobody grant what they do not
 * hold (the escalation check), so the operator holds its own calls plus every rule of every role
 * the strategy renders: the strategy's ClusterRoles' rules cluster-wide, its Roles' rules only
 * in the install namespace (a Role there can be granted by who holds its rules there). Roles the
 * strategy binds without rendering them (Kubernetes' own, e.g. system:auth-delegator) it may
 * bind by name (RBAC's `bind` verb) rather than hold what they grant. Computed from the
 * strategy, so a new component permission cannot be forgotten here.
 */
export interface OperatorRules {
  /** The ClusterRole `kubevirt-operator`. */
  readonly cluster: PolicyRule[];
  /** The Role `kubevirt-operator` in the install namespace. */
  readonly namespaced: PolicyRule[];
}

export function operatorRules(namespace: string): OperatorRules {
  const strategy = renderStrategy(anyIdentity(namespace), anyKubeVirt(namespace), ANY_TRUST);
  const rulesOf = (kind: string) =>
    strategy.objects
      .filter((object) => object.kind === kind)
      .flatMap((object) => (object.rules as PolicyRule[] | undefined) ?? []);
  return {
    cluster: unionOfRules([
      ...OPERATOR_CLUSTER_RULES,
      ...rulesOf("ClusterRole"),
      ...bindRulesForUnrenderedRoles(strategy.objects),
    ]),
    namespaced: unionOfRules([...OPERATOR_NAMESPACE_RULES, ...rulesOf("Role")]),
  };
}

/**
 * `bind` on each role a binding of `objects` refers to that `objects` do not render, by name:
 * cluster-wide (a ClusterRole's rule), since such a binding may be in another namespace (virt-api's
 * in kube-system).
 */
export function bindRulesForUnrenderedRoles(objects: readonly ManagedObject[]): PolicyRule[] {
  const rendered = new Set(
    objects
      .filter((object) => object.kind === "ClusterRole" || object.kind === "Role")
      .map((object) => `${object.kind}/${object.metadata.namespace ?? ""}/${object.metadata.name}`),
  );
  const rules: PolicyRule[] = [];
  for (const binding of objects) {
    if (binding.kind !== "ClusterRoleBinding" && binding.kind !== "RoleBinding") continue;
    const roleRef = binding.roleRef as { kind: "ClusterRole" | "Role"; name: string };
    const namespace = roleRef.kind === "Role" ? (binding.metadata.namespace ?? "") : "";
    if (rendered.has(`${roleRef.kind}/${namespace}/${roleRef.name}`)) continue;
    rules.push({
      apiGroups: [RBAC_GROUP],
      resources: [roleRef.kind === "ClusterRole" ? "clusterroles" : "roles"],
      verbs: ["bind"],
      resourceNames: [roleRef.name],
    });
  }
  return rules;
}

const RBAC_GROUP = "rbac.authorization.k8s.io";

/** Roles do not depend on the CA bundle either. */
const ANY_TRUST: IssuedTrust = { caBundlePem: "" };

/** Roles do not depend on images or on the CR's spec: any registry, version and CR render the same rules. */
function anyIdentity(namespace: string): OperatorIdentity {
  return { namespace, registry: "rbac.invalid", version: "v0" };
}

function anyKubeVirt(namespace: string): KubeVirt {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "KubeVirt",
    metadata: { name: "kubevirt", namespace },
    spec: {},
  };
}
