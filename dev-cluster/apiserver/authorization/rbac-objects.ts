import { isJsonObject, type JsonObject } from "../json.js";
import { nameOf, namespaceOf, stringField } from "../objects/object-meta.js";
import type { ObjectStore } from "../storage/object-store.js";
import type { ChangeEvent } from "../storage/watch-history.js";
import { type PolicyRule, policyRulesOf } from "./policy-rule.js";

export const RBAC_GROUP = "rbac.authorization.k8s.io";
const ROLES = `${RBAC_GROUP}/roles`;
const CLUSTER_ROLES = `${RBAC_GROUP}/clusterroles`;
const ROLE_BINDINGS = `${RBAC_GROUP}/rolebindings`;
const CLUSTER_ROLE_BINDINGS = `${RBAC_GROUP}/clusterrolebindings`;

export interface RoleRef {
  kind: string;
  name: string;
}

export interface Subject {
  kind: string;
  name: string;
  /** Only ServiceAccount subjects have one; "" means the binding's namespace. */
  namespace: string;
}

/** A RoleBinding or ClusterRoleBinding (namespace "") as the authorizer reads it. */
export interface Binding {
  name: string;
  namespace: string;
  roleRef: RoleRef;
  subjects: Subject[];
}

function bindingOf(object: JsonObject): Binding {
  const ref = isJsonObject(object.roleRef) ? object.roleRef : {};
  const subjects = Array.isArray(object.subjects) ? object.subjects.filter(isJsonObject) : [];
  return {
    name: nameOf(object),
    namespace: namespaceOf(object),
    roleRef: { kind: stringField(ref, "kind") ?? "", name: stringField(ref, "name") ?? "" },
    subjects: subjects.map((subject) => ({
      kind: stringField(subject, "kind") ?? "",
      name: stringField(subject, "name") ?? "",
      namespace: stringField(subject, "namespace") ?? "",
    })),
  };
}

const byName = (a: Binding, b: Binding): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The Roles, ClusterRoles and bindings the RBAC authorizer reads, as an informer cache would
 * hold them: loaded once from the store, then kept current from its change feed (each change
 * lands before the write that caused it returns, so a request after a write sees it). Objects
 * are parsed once per change, not once per request.
 */
export class RbacObjects {
  readonly #roles = new Map<string, PolicyRule[]>();
  readonly #clusterRoles = new Map<string, PolicyRule[]>();
  readonly #roleBindings = new Map<string, Map<string, Binding>>();
  readonly #clusterRoleBindings = new Map<string, Binding>();
  /** Bindings sorted by name, rebuilt after a change: the order in which reasons name them. */
  #sortedClusterRoleBindings: Binding[] | undefined;
  readonly #sortedRoleBindings = new Map<string, Binding[]>();
  readonly #stopWatching: () => void;

  constructor(store: ObjectStore) {
    this.#stopWatching = store.onChange((event) => this.#apply(event));
    for (const resource of [ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS]) {
      for (const object of store.list(resource)) this.#put(resource, object);
    }
  }

  stop(): void {
    this.#stopWatching();
  }

  /** The rules of a Role, or undefined when it does not exist. */
  role(namespace: string, name: string): readonly PolicyRule[] | undefined {
    return this.#roles.get(`${namespace}/${name}`);
  }

  clusterRole(name: string): readonly PolicyRule[] | undefined {
    return this.#clusterRoles.get(name);
  }

  clusterRoleBindings(): readonly Binding[] {
    this.#sortedClusterRoleBindings ??= [...this.#clusterRoleBindings.values()].sort(byName);
    return this.#sortedClusterRoleBindings;
  }

  roleBindings(namespace: string): readonly Binding[] {
    let sorted = this.#sortedRoleBindings.get(namespace);
    if (!sorted) {
      sorted = [...(this.#roleBindings.get(namespace)?.values() ?? [])].sort(byName);
      this.#sortedRoleBindings.set(namespace, sorted);
    }
    return sorted;
  }

  #apply(event: ChangeEvent): void {
    if (!event.resource.startsWith(`${RBAC_GROUP}/`)) return;
    if (event.type === "DELETED") this.#remove(event.resource, event.namespace, event.name);
    else this.#put(event.resource, JSON.parse(event.data) as JsonObject);
  }

  #put(resource: string, object: JsonObject): void {
    const namespace = namespaceOf(object);
    const name = nameOf(object);
    switch (resource) {
      case ROLES:
        this.#roles.set(`${namespace}/${name}`, policyRulesOf(object));
        break;
      case CLUSTER_ROLES:
        this.#clusterRoles.set(name, policyRulesOf(object));
        break;
      case ROLE_BINDINGS: {
        let bindings = this.#roleBindings.get(namespace);
        if (!bindings) {
          bindings = new Map();
          this.#roleBindings.set(namespace, bindings);
        }
        bindings.set(name, bindingOf(object));
        this.#sortedRoleBindings.delete(namespace);
        break;
      }
      case CLUSTER_ROLE_BINDINGS:
        this.#clusterRoleBindings.set(name, bindingOf(object));
        this.#sortedClusterRoleBindings = undefined;
        break;
    }
  }

  #remove(resource: string, namespace: string, name: string): void {
    switch (resource) {
      case ROLES:
        this.#roles.delete(`${namespace}/${name}`);
        break;
      case CLUSTER_ROLES:
        this.#clusterRoles.delete(name);
        break;
      case ROLE_BINDINGS:
        this.#roleBindings.get(namespace)?.delete(name);
        this.#sortedRoleBindings.delete(namespace);
        break;
      case CLUSTER_ROLE_BINDINGS:
        this.#clusterRoleBindings.delete(name);
        this.#sortedClusterRoleBindings = undefined;
        break;
    }
  }
}
