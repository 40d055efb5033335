import { ApiError, notFound } from "../api-error.js";
import type { UserInfo } from "../auth/authenticator.js";
import { objectAt, stringAt } from "../builtin/json-read.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { nameOf } from "../objects/object-meta.js";
import { type AuthorizationAttributes, resourceAttributes } from "./attributes.js";
import { type Authorizer, MASTERS_GROUP } from "./authorizer.js";
import { type PolicyRule, policyRulesOf } from "./policy-rule.js";
import { RBAC_GROUP } from "./rbac-objects.js";
import { covers } from "./rule-coverage.js";
import type { RuleResolver } from "./rule-resolver.js";

/** Where a write lands: the resource's plural, the URL's namespace and name. */
export interface GuardedWrite {
  plural: string;
  namespace: string;
  /** The name in the URL ("" for a create). */
  urlName: string;
}

const ROLE_KINDS = new Set(["roles", "clusterroles"]);
const BINDING_KINDS = new Set(["rolebindings", "clusterrolebindings"]);

const fullAuthority: PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"], resourceNames: [], nonResourceURLs: [] },
  { verbs: ["*"], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ["*"] },
];

/** rbacv1helpers.CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
function compactString(rule: PolicyRule): string {
  const list = (values: readonly string[]) => `[${values.map((value) => JSON.stringify(value)).join(" ")}]`;
  const parts: [string, readonly string[]][] = [
    ["APIGroups", rule.apiGroups],
    ["Resources", rule.resources],
    ["NonResourceURLs", rule.nonResourceURLs],
    ["ResourceNames", rule.resourceNames],
    ["Verbs", rule.verbs],
  ];
  return `{${parts
    .filter(([, values]) => values.length > 0)
    .map(([label, values]) => `${label}:${list(values)}`)
    .join(", ")}}`;
}

/** rbac's CompactRules: simple rules (one group, one resource, at most one name) of the same object merge their verbs. */
function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple =
      rule.resourceNames.length <= 1 &&
      rule.nonResourceURLs.length === 0 &&
      rule.apiGroups.length === 1 &&
      rule.resources.length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups[0], rule.resources[0], rule.resourceNames[0] ?? null]);
    const existing = simple.get(key);
    if (existing) simple.set(key, { ...existing, verbs: [...existing.verbs, ...rule.verbs] });
    else simple.set(key, rule);
  }
  return [...compacted, ...simple.values()];
}

function forbiddenWrite(plural: string, name: string, why: string): ApiError {
  return new ApiError(
    403,
    "Forbidden",
    `${plural}.${RBAC_GROUP} ${JSON.stringify(name)} is forbidden: ${why}`,
    {
      name,
      group: RBAC_GROUP,
      kind: plural,
    },
  );
}

/**
 * RBAC's guard against privilege escalation on writes of roles and bindings, as its policy-based
 * storage enforces it: a user may write a role only with every permission in it (or the
 * `escalate` verb on it), and bind a role only holding its permissions (or with `bind` on it).
 * system:masters is exempt. Aggregation rules need full authority, since they can gather anything.
 */
export class EscalationCheck {
  readonly #authorizer: Authorizer;
  readonly #resolver: RuleResolver;

  constructor(authorizer: Authorizer, resolver: RuleResolver) {
    this.#authorizer = authorizer;
    this.#resolver = resolver;
  }

  /** Whether a write of `plural` by `user` must be checked (and so its result computed first). */
  applies(user: UserInfo, group: string, plural: string): boolean {
    if (group !== RBAC_GROUP || user.groups.includes(MASTERS_GROUP)) return false;
    return ROLE_KINDS.has(plural) || BINDING_KINDS.has(plural);
  }

  /** Throws a 403 (or the 404 of a missing referenced role) when `user` may not make the write that yields `object`. */
  check(user: UserInfo, write: GuardedWrite, object: JsonObject): void {
    if (ROLE_KINDS.has(write.plural)) this.#checkRole(user, write, object);
    else if (BINDING_KINDS.has(write.plural)) this.#checkBinding(user, write, object);
  }

  #allowed(user: UserInfo, verb: string, fields: Partial<AuthorizationAttributes>): boolean {
    const attributes = resourceAttributes(user, verb, { apiGroup: RBAC_GROUP, ...fields });
    return this.#authorizer.authorize(attributes).decision === "Allow";
  }

  /** ConfirmNoEscalation: the user's own rules in the namespace must cover `rules`; the message lists what they lack. */
  #missing(user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
    const owned = this.#resolver.rulesFor(user, namespace);
    const { missing } = covers(owned.rules, rules);
    if (missing.length === 0) return undefined;
    const lines = [...new Set(compactRules(missing).map(compactString))].sort();
    const groups = `[${user.groups.map((group) => JSON.stringify(group)).join(" ")}]`;
    let message = `user ${JSON.stringify(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${lines.join("\n")}`;
    if (owned.errors.length > 0)
      message += `; resolution errors: [${owned.errors.map((e) => e.message).join(" ")}]`;
    return message;
  }

  #checkRole(user: UserInfo, write: GuardedWrite, role: JsonObject): void {
    const scope = { resource: write.plural, namespace: write.namespace, name: write.urlName };
    if (this.#allowed(user, "escalate", scope)) return;
    const missing = this.#missing(user, write.namespace, policyRulesOf(role));
    if (missing) throw forbiddenWrite(write.plural, nameOf(role), missing);
    if (isJsonObject(role.aggregationRule) && this.#missing(user, write.namespace, fullAuthority)) {
      throw forbiddenWrite(
        write.plural,
        nameOf(role),
        "must have cluster-admin privileges to use the aggregationRule",
      );
    }
  }

  #checkBinding(user: UserInfo, write: GuardedWrite, binding: JsonObject): void {
    const ref = objectAt(binding, "roleRef");
    const kind = stringAt(ref, "kind") ?? "";
    const name = stringAt(ref, "name") ?? "";
    const resource = kind === "ClusterRole" ? "clusterroles" : kind === "Role" ? "roles" : undefined;
    const bindAllowed =
      resource !== undefined &&
      this.#allowed(user, "bind", {
        apiGroup: stringAt(ref, "apiGroup") ?? "",
        resource,
        namespace: write.namespace,
        name,
      });
    if (bindAllowed) return;
    let rules: readonly PolicyRule[];
    try {
      rules = this.#resolver.roleReferenceRules({
        name: nameOf(binding),
        namespace: write.namespace,
        roleRef: { kind, name },
        subjects: [],
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      if (resource === undefined) throw forbiddenWrite(write.plural, nameOf(binding), why);
      throw notFound({ group: RBAC_GROUP, resource: resource.slice(0, -1), name });
    }
    const missing = this.#missing(user, write.namespace, rules);
    if (missing) throw forbiddenWrite(write.plural, nameOf(binding), missing);
  }
}
