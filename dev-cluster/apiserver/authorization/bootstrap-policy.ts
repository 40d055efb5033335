import type { JsonObject } from "../json.js";
import { type PolicyRule, policyRuleJson } from "./policy-rule.js";
import { RBAC_GROUP } from "./rbac-objects.js";

/** Marks what the API server bootstraps (and reconciles on every start). */
export const BOOTSTRAP_LABELS = { "kubernetes.io/bootstrapping": "rbac-defaults" };
/** Set to "false" on a bootstrap object, it stops the API server from reconciling it. */
export const AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";

const AGGREGATE_TO = (role: "admin" | "edit" | "view") => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const READ = ["get", "list", "watch"];
const WRITE = ["create", "delete", "deletecollection", "patch", "update"];
const READ_WRITE = [...READ, ...WRITE];

interface RuleSpec {
  verbs: string[];
  groups?: string[];
  resources?: string[];
  names?: string[];
  urls?: string[];
}

function rule(spec: RuleSpec): PolicyRule {
  return {
    verbs: spec.verbs,
    apiGroups: spec.groups ?? [],
    resources: spec.resources ?? [],
    resourceNames: spec.names ?? [],
    nonResourceURLs: spec.urls ?? [],
  };
}

function clusterRole(
  name: string,
  rules: RuleSpec[],
  options: { labels?: Record<string, string>; aggregateFrom?: string } = {},
): JsonObject {
  const role: JsonObject = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRole",
    metadata: {
      name,
      labels: { ...BOOTSTRAP_LABELS, ...(options.labels ?? {}) },
      annotations: { [AUTOUPDATE_ANNOTATION]: "true" },
    },
    rules: rules.map((spec) => policyRuleJson(rule(spec))),
  };
  if (options.aggregateFrom) {
    role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [options.aggregateFrom]: "true" } }] };
  }
  return role;
}

function clusterRoleBinding(name: string, groups: string[]): JsonObject {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRoleBinding",
    metadata: {
      name,
      labels: { ...BOOTSTRAP_LABELS },
      annotations: { [AUTOUPDATE_ANNOTATION]: "true" },
    },
    roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name },
    subjects: groups.map((group) => ({ apiGroup: RBAC_GROUP, kind: "Group", name: group })),
  };
}

const core = (verbs: string[], ...resources: string[]): RuleSpec => ({ verbs, groups: [""], resources });
const of = (group: string, verbs: string[], ...resources: string[]): RuleSpec => ({
  verbs,
  groups: [group],
  resources,
});

/** The base rules `view` aggregates: reading what is not a secret nor escalates. */
const viewRules: RuleSpec[] = [
  core(
    READ,
    "pods",
    "replicationcontrollers",
    "replicationcontrollers/scale",
    "serviceaccounts",
    "services",
    "services/status",
    "endpoints",
    "persistentvolumeclaims",
    "persistentvolumeclaims/status",
    "configmaps",
  ),
  core(
    READ,
    "limitranges",
    "resourcequotas",
    "bindings",
    "events",
    "pods/status",
    "resourcequotas/status",
    "namespaces/status",
    "replicationcontrollers/status",
    "pods/log",
  ),
  // Reading namespaces at namespace scope means reading *this* namespace.
  core(READ, "namespaces"),
  of("discovery.k8s.io", READ, "endpointslices"),
  of(
    "apps",
    READ,
    "controllerrevisions",
    "statefulsets",
    "statefulsets/status",
    "statefulsets/scale",
    "daemonsets",
    "daemonsets/status",
    "deployments",
    "deployments/status",
    "deployments/scale",
    "replicasets",
    "replicasets/status",
    "replicasets/scale",
  ),
  of("autoscaling", READ, "horizontalpodautoscalers", "horizontalpodautoscalers/status"),
  of("batch", READ, "jobs", "cronjobs", "cronjobs/status", "jobs/status"),
  of("policy", READ, "poddisruptionbudgets", "poddisruptionbudgets/status"),
  of("networking.k8s.io", READ, "networkpolicies", "ingresses", "ingresses/status"),
];

/** The base rules `edit` aggregates (on top of view's): writing workloads, reading secrets. */
const editRules: RuleSpec[] = [
  core(READ, "pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy"),
  core(["impersonate"], "serviceaccounts"),
  core(WRITE, "pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"),
  core(["create"], "pods/eviction"),
  core(
    WRITE,
    "replicationcontrollers",
    "replicationcontrollers/scale",
    "serviceaccounts",
    "services",
    "services/proxy",
    "persistentvolumeclaims",
    "configmaps",
    "secrets",
  ),
  of(
    "apps",
    WRITE,
    "statefulsets",
    "statefulsets/scale",
    "daemonsets",
    "deployments",
    "deployments/scale",
    "deployments/rollback",
    "replicasets",
    "replicasets/scale",
  ),
  of("autoscaling", WRITE, "horizontalpodautoscalers"),
  of("batch", WRITE, "jobs", "cronjobs"),
  of("policy", WRITE, "poddisruptionbudgets"),
  of("networking.k8s.io", WRITE, "networkpolicies", "ingresses"),
];

/** The base rules `admin` aggregates (on top of edit's): granting roles within a namespace. */
const adminRules: RuleSpec[] = [
  of("authorization.k8s.io", ["create"], "localsubjectaccessreviews"),
  of(RBAC_GROUP, READ_WRITE, "roles", "rolebindings"),
];

/**
 * kube's `system:node`: what a kubelet reads and reports. Kube grants PVCs and PVs `get` only and
 * lets its Node authorizer (which this server does not have) cover the rest; the node agent lists
 * and watches them, so here they are readable in full.
 */
const nodeRules: RuleSpec[] = [
  of("authentication.k8s.io", ["create"], "tokenreviews"),
  of("authorization.k8s.io", ["create"], "subjectaccessreviews", "localsubjectaccessreviews"),
  core(READ, "services"),
  core(["create", "get", "list", "watch", "update", "patch"], "nodes"),
  core(["update", "patch"], "nodes/status"),
  core(["create", "update", "patch"], "events"),
  core([...READ, "create", "delete"], "pods"),
  core(["update", "patch"], "pods/status"),
  core(["create"], "pods/eviction"),
  core(READ, "secrets", "configmaps"),
  core(READ, "persistentvolumeclaims", "persistentvolumes"),
  core(["get", "update", "patch"], "persistentvolumeclaims/status"),
  core(["get"], "endpoints"),
  of("coordination.k8s.io", ["get", "create", "update", "patch", "delete"], "leases"),
  of("storage.k8s.io", ["get"], "volumeattachments"),
  core(["create"], "serviceaccounts/token"),
];

/** kube's roles for external provisioners and for the scheduler's volume binding. */
const provisionerRules: RuleSpec[] = [
  core([...READ, "create", "delete"], "persistentvolumes"),
  core([...READ, "update"], "persistentvolumeclaims"),
  of("storage.k8s.io", READ, "storageclasses"),
  core(["watch"], "events"),
  core(["create", "update", "patch"], "events"),
  of("events.k8s.io", ["create", "update", "patch"], "events"),
];
const volumeSchedulerRules: RuleSpec[] = [
  core([...READ, "update", "patch"], "persistentvolumes"),
  of("storage.k8s.io", READ, "storageclasses"),
  core([...READ, "update", "patch"], "persistentvolumeclaims"),
];

/**
 * The ClusterRoles kube-apiserver bootstraps that this server needs: the superuser role, what
 * every user may do to learn about the server and themselves, the node's and the storage roles,
 * the user-facing aggregated
 * roles with their upstream base rules, and the delegation role extension API servers bind.
 */
export function bootstrapClusterRoles(): JsonObject[] {
  return [
    clusterRole("cluster-admin", [
      { verbs: ["*"], groups: ["*"], resources: ["*"] },
      { verbs: ["*"], urls: ["*"] },
    ]),
    clusterRole("system:discovery", [
      {
        verbs: ["get"],
        urls: [
          "/api",
          "/api/*",
          "/apis",
          "/apis/*",
          "/healthz",
          "/livez",
          "/openapi",
          "/openapi/*",
          "/readyz",
          "/version",
          "/version/",
        ],
      },
    ]),
    clusterRole("system:basic-user", [
      of("authorization.k8s.io", ["create"], "selfsubjectaccessreviews", "selfsubjectrulesreviews"),
      of("authentication.k8s.io", ["create"], "selfsubjectreviews"),
    ]),
    clusterRole("system:public-info-viewer", [
      { verbs: ["get"], urls: ["/healthz", "/livez", "/readyz", "/version", "/version/"] },
    ]),
    clusterRole("system:service-account-issuer-discovery", [
      {
        verbs: ["get"],
        urls: [
          "/.well-known/openid-configuration",
          "/.well-known/openid-configuration/",
          "/openid/v1/jwks",
          "/openid/v1/jwks/",
        ],
      },
    ]),
    clusterRole("system:auth-delegator", [
      of("authentication.k8s.io", ["create"], "tokenreviews"),
      of("authorization.k8s.io", ["create"], "subjectaccessreviews"),
    ]),
    clusterRole("system:node", nodeRules),
    clusterRole("system:persistent-volume-provisioner", provisionerRules),
    clusterRole("system:volume-scheduler", volumeSchedulerRules),
    clusterRole("admin", [], { aggregateFrom: AGGREGATE_TO("admin") }),
    clusterRole("edit", [], {
      labels: { [AGGREGATE_TO("admin")]: "true" },
      aggregateFrom: AGGREGATE_TO("edit"),
    }),
    clusterRole("view", [], {
      labels: { [AGGREGATE_TO("edit")]: "true" },
      aggregateFrom: AGGREGATE_TO("view"),
    }),
    clusterRole("system:aggregate-to-admin", adminRules, { labels: { [AGGREGATE_TO("admin")]: "true" } }),
    clusterRole("system:aggregate-to-edit", editRules, { labels: { [AGGREGATE_TO("edit")]: "true" } }),
    clusterRole("system:aggregate-to-view", viewRules, { labels: { [AGGREGATE_TO("view")]: "true" } }),
  ];
}

export function bootstrapClusterRoleBindings(): JsonObject[] {
  return [
    clusterRoleBinding("cluster-admin", ["system:masters"]),
    clusterRoleBinding("system:discovery", ["system:authenticated"]),
    clusterRoleBinding("system:basic-user", ["system:authenticated"]),
    clusterRoleBinding("system:public-info-viewer", ["system:authenticated", "system:unauthenticated"]),
    clusterRoleBinding("system:service-account-issuer-discovery", ["system:serviceaccounts"]),
    // Kube leaves this binding empty for its Node authorizer; without one, the group gets the role.
    clusterRoleBinding("system:node", ["system:nodes"]),
  ];
}
