import type { UserInfo } from "../auth/authenticator.js";
import type { PolicyRule } from "./policy-rule.js";
import { type Binding, RBAC_GROUP, type RbacObjects, type Subject } from "./rbac-objects.js";

export const SERVICE_ACCOUNT_USERNAME_PREFIX = "system:serviceaccount:";

/**
 * Where a rule came from, in the words of RBAC's reasons:
 * `ClusterRoleBinding "x" of ClusterRole "y" to User "z"`.
 */
export type RuleSource = () => string;

/** Called with each rule that applies, or with an error met on the way; returning false stops the walk. */
export type RuleVisitor = (
  source: RuleSource | undefined,
  rule: PolicyRule | undefined,
  error?: Error,
) => boolean;

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === "ServiceAccount") {
    const namespace = subject.namespace !== "" ? subject.namespace : bindingNamespace;
    return `${subject.kind} ${JSON.stringify(`${subject.name}/${namespace}`)}`;
  }
  return `${subject.kind} ${JSON.stringify(subject.name)}`;
}

function describeBinding(binding: Binding, subject: Subject): string {
  const kind = binding.namespace === "" ? "ClusterRoleBinding" : "RoleBinding";
  const name = binding.namespace === "" ? binding.name : `${binding.name}/${binding.namespace}`;
  return `${kind} ${JSON.stringify(name)} of ${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)} to ${describeSubject(subject, binding.namespace)}`;
}

function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case "User":
      return user.username === subject.name;
    case "Group":
      return user.groups.includes(subject.name);
    case "ServiceAccount": {
      // A RoleBinding's ServiceAccount subject without a namespace means the binding's own.
      const namespace = subject.namespace !== "" ? subject.namespace : bindingNamespace;
      if (namespace === "") return false;
      return user.username === `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

/** The lister errors kube-apiserver reports for a binding whose role is missing. */
function notFound(resource: "role" | "clusterrole", name: string): Error {
  return new Error(`${resource}.${RBAC_GROUP} ${JSON.stringify(name)} not found`);
}

/**
 * Resolves the rules a user holds in a namespace ("" for cluster scope), as RBAC's
 * DefaultRuleResolver does: every ClusterRoleBinding that names the user, then the namespace's
 * RoleBindings, each contributing its role's rules.
 */
export class RuleResolver {
  readonly #objects: RbacObjects;

  constructor(objects: RbacObjects) {
    this.#objects = objects;
  }

  roleReferenceRules(binding: Binding): readonly PolicyRule[] {
    const { kind, name } = binding.roleRef;
    if (kind === "ClusterRole") {
      const rules = this.#objects.clusterRole(name);
      if (!rules) throw notFound("clusterrole", name);
      return rules;
    }
    if (kind === "Role") {
      const rules = this.#objects.role(binding.namespace, name);
      if (!rules) throw notFound("role", name);
      return rules;
    }
    throw new Error(`unsupported role reference kind: ${JSON.stringify(kind)}`);
  }

  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    if (!this.#visitBindings(this.#objects.clusterRoleBindings(), user, visitor)) return;
    if (namespace !== "") this.#visitBindings(this.#objects.roleBindings(namespace), user, visitor);
  }

  /** Every rule that applies, and the errors met (the rules found still count: rules only add). */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule) rules.push(rule);
      if (error) errors.push(error);
      return true;
    });
    return { rules, errors };
  }

  /** Returns false when the visitor stopped the walk. */
  #visitBindings(bindings: readonly Binding[], user: UserInfo, visitor: RuleVisitor): boolean {
    for (const binding of bindings) {
      const subject = binding.subjects.find((candidate) => appliesToUser(user, candidate, binding.namespace));
      if (!subject) continue;
      let rules: readonly PolicyRule[];
      try {
        rules = this.roleReferenceRules(binding);
      } catch (error) {
        if (!visitor(undefined, undefined, error instanceof Error ? error : new Error(String(error)))) {
          return false;
        }
        continue;
      }
      const source = () => describeBinding(binding, subject);
      for (const rule of rules) if (!visitor(source, rule)) return false;
    }
    return true;
  }
}
