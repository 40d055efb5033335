import { defineKind, type KubeObject, type ResourceKind } from "../../runtime/index.js";

/** An object the operator installs, as the API returns it: any kind, plain JSON. */
export type InstalledObject = KubeObject & { [field: string]: unknown };

/**
 * A kind the operator can install. `stage` orders an uninstall (highest first) the way the
 * strategy orders an install: CRDs, then identities and RBAC, then configuration and services,
 * then the workloads, then the API registrations that send requests to them. So the API server
 * stops calling virt-api (webhooks with failurePolicy Fail, the aggregated API) before virt-api
 * goes: a finalizer removed meanwhile is never refused by a webhook nobody serves.
 */
export interface ManagedKind {
  readonly resource: ResourceKind<InstalledObject>;
  readonly stage: number;
  /**
   * How the installer writes it: server-side apply, or (`replace`) create, then update at the
   * live resourceVersion, for a kind some supported API servers cannot apply.
   */
  readonly write: "apply" | "replace";
}

function managed(
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced: boolean,
  stage: number,
  write: ManagedKind["write"] = "apply",
): ManagedKind {
  return {
    resource: defineKind<InstalledObject>({ group, version, kind, plural, namespaced }),
    stage,
    write,
  };
}

/**
 * Every kind an install strategy may contain. Each is watched (label-selected) from the start,
 * so drift, deletions and leftovers of any of them are seen whatever the current strategy holds.
 */
export const MANAGED_KINDS: readonly ManagedKind[] = [
  managed("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false, 0),
  managed("", "v1", "ServiceAccount", "serviceaccounts", true, 1),
  managed("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false, 1),
  managed("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings", false, 1),
  managed("rbac.authorization.k8s.io", "v1", "Role", "roles", true, 1),
  managed("rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", true, 1),
  managed("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", false, 1),
  managed("", "v1", "ConfigMap", "configmaps", true, 2),
  managed("", "v1", "Secret", "secrets", true, 2),
  managed("", "v1", "Service", "services", true, 2),
  managed("apps", "v1", "Deployment", "deployments", true, 4),
  managed("apps", "v1", "DaemonSet", "daemonsets", true, 4),
  // Replaced, not applied: kube-apiserver 1.20's aggregator panics on a server-side apply of an
  // APIService ("FieldManager must be installed to run apply") and drops the connection.
  managed("apiregistration.k8s.io", "v1", "APIService", "apiservices", false, 5, "replace"),
  managed(
    "admissionregistration.k8s.io",
    "v1",
    "MutatingWebhookConfiguration",
    "mutatingwebhookconfigurations",
    false,
    5,
  ),
  managed(
    "admissionregistration.k8s.io",
    "v1",
    "ValidatingWebhookConfiguration",
    "validatingwebhookconfigurations",
    false,
    5,
  ),
];

/** `apiVersion` and `kind` of an object as one lookup key, e.g. `apps/v1 Deployment`. */
export function typeKey(object: { readonly apiVersion?: string; readonly kind?: string }): string {
  return `${object.apiVersion ?? ""} ${object.kind ?? ""}`;
}

function apiVersionOfKind(kind: ManagedKind): string {
  const { group, version } = kind.resource;
  return group === "" ? version : `${group}/${version}`;
}

export class ManagedKindTable {
  readonly kinds: readonly ManagedKind[];
  readonly #byType: ReadonlyMap<string, ManagedKind>;

  constructor(kinds: readonly ManagedKind[] = MANAGED_KINDS) {
    this.kinds = kinds;
    this.#byType = new Map(
      kinds.map((kind) => [typeKey({ apiVersion: apiVersionOfKind(kind), kind: kind.resource.kind }), kind]),
    );
  }

  /** The managed kind of an object, or undefined when the operator does not manage that kind. */
  of(object: { readonly apiVersion?: string; readonly kind?: string }): ManagedKind | undefined {
    return this.#byType.get(typeKey(object));
  }

  /** The table's key of one object: kind and namespace/name. */
  static identity(
    kind: ManagedKind,
    object: { readonly metadata?: { readonly name?: string; readonly namespace?: string } },
  ): string {
    const namespace = kind.resource.namespaced ? (object.metadata?.namespace ?? "") : "";
    return `${kind.resource.kind}:${namespace}/${object.metadata?.name ?? ""}`;
  }
}
