import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { COMMON_SET_KINDS } from "../common-instancetypes/common-instancetypes-sync.js";
import { MANAGED_KINDS } from "../kubevirt/managed-kinds.js";
import { COORDINATION_GROUP, CORE_GROUP, KUBEVIRT_GROUP, type PolicyRule } from "../strategy/policy-rule.js";

/**
 * What virt-operator itself calls (its reconciler, status writer and leader election), before
 * the permissions it needs only to grant them (see operator-rbac.ts).
 */

/** What the reconciler does to every kind it manages: watches them all, applies, repairs, removes. */
const MANAGES = ["get", "list", "watch", "create", "update", "patch", "delete"];

/**
 * One rule per API group over the kinds virt-operator/kubevirt/managed-kinds.ts lists: the
 * reconciler watches each of them from its start (a kind without list/watch would keep its
 * caches from syncing), so the bundle follows that table instead of a copy of it.
 */
function managedKindRules(): PolicyRule[] {
  const byGroup = new Map<string, string[]>();
  for (const { resource } of MANAGED_KINDS) {
    byGroup.set(resource.group, [...(byGroup.get(resource.group) ?? []), resource.plural]);
  }
  return [...byGroup].map(([group, plurals]) => ({ apiGroups: [group], resources: plurals, verbs: MANAGES }));
}

export const OPERATOR_CLUSTER_RULES: readonly PolicyRule[] = [
  {
    // The KubeVirt CR: watched, its finalizer added and removed (update/patch).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["kubevirts"],
    verbs: ["get", "list", "watch", "update", "patch"],
  },
  {
    // Phase and conditions go to the status subresource.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["kubevirts/status"],
    verbs: ["update", "patch"],
  },
  {
    // Setting finalizers on a CR where OwnerReferencesPermissionEnforcement is on.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["kubevirts/finalizers"],
    verbs: ["update"],
  },
  ...managedKindRules(),
  {
    // The common instancetypes and preferences: listed, applied and removed on each install pass
    // (common-instancetypes-sync.ts; not watched, so no watch).
    apiGroups: [...new Set(COMMON_SET_KINDS.map((kind) => kind.group))],
    resources: COMMON_SET_KINDS.map((kind) => kind.plural),
    verbs: ["get", "list", "create", "patch", "delete"],
  },
  {
    // Uninstall: RemoveWorkloads deletes the VMs and VMIs; BlockUninstallIfWorkloadsExist lists them.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachines", "virtualmachineinstances"],
    verbs: ["get", "list", "watch", "delete"],
  },
  {
    // runtime's EventRecorder: Events on the KubeVirt CR.
    apiGroups: [CORE_GROUP],
    resources: ["events"],
    verbs: ["create", "patch"],
  },
];

/** In the operator's namespace only: its leader election Lease and its serving certificate. */
export const OPERATOR_NAMESPACE_RULES: readonly PolicyRule[] = [
  { apiGroups: [COORDINATION_GROUP], resources: ["leases"], verbs: ["get", "create", "update"] },
  {
    // main.ts metrics: its metrics server follows the certificate it issues for itself, pinned by
    // name as the components' are. The Secret rule of managedKindRules() covers it today; this
    // one says why the operator reads it, and keeps it readable if that rule is ever narrowed.
    apiGroups: [CORE_GROUP],
    resources: ["secrets"],
    verbs: ["list", "watch"],
    resourceNames: [CERTIFICATE_SECRETS.operatorServer],
  },
];
