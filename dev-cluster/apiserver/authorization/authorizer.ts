import type { UserInfo } from "../auth/authenticator.js";
import type { AuthorizationAttributes } from "./attributes.js";
import { type PolicyRule, ruleAllows } from "./policy-rule.js";
import type { RuleResolver } from "./rule-resolver.js";

/** RBAC never denies; it allows or has no opinion (and a request nobody allows is forbidden). */
export type Decision = "Allow" | "Deny" | "NoOpinion";

export interface AuthorizationResult {
  decision: Decision;
  /** Why: `RBAC: allowed by ...`, or the errors met while resolving roles. */
  reason: string;
  evaluationError?: string;
}

/** What a user may do in a namespace, for SelfSubjectRulesReview. */
export interface SubjectRules {
  resourceRules: PolicyRule[];
  nonResourceRules: PolicyRule[];
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationResult;
  rulesFor(user: UserInfo, namespace: string): SubjectRules;
}

/** Members of this group may do anything, whatever RBAC says (kube-apiserver's privileged group). */
export const MASTERS_GROUP = "system:masters";

const everything: PolicyRule = {
  verbs: ["*"],
  apiGroups: ["*"],
  resources: ["*"],
  resourceNames: [],
  nonResourceURLs: [],
};
const everyUrl: PolicyRule = { ...everything, apiGroups: [], resources: [], nonResourceURLs: ["*"] };

/** utilerrors.NewAggregate's message: one error as is, several de-duplicated in brackets. */
export function aggregateMessage(errors: readonly Error[]): string {
  const messages = [...new Set(errors.map((error) => error.message))];
  if (messages.length <= 1) return messages[0] ?? "";
  return `[${messages.join(", ")}]`;
}

/**
 * kube-apiserver's authorizer chain with `--authorization-mode=RBAC`: the privileged group
 * first (system:masters may do anything), then RBAC, which allows when one rule of a role bound
 * to the user matches, naming the binding in its reason.
 */
export class RbacAuthorizer implements Authorizer {
  readonly #resolver: RuleResolver;

  constructor(resolver: RuleResolver) {
    this.#resolver = resolver;
  }

  authorize(attributes: AuthorizationAttributes): AuthorizationResult {
    if (attributes.user.groups.includes(MASTERS_GROUP)) return { decision: "Allow", reason: "" };
    let allowedBy: string | undefined;
    const errors: Error[] = [];
    this.#resolver.visitRulesFor(attributes.user, attributes.namespace, (source, rule, error) => {
      if (rule && source && ruleAllows(attributes, rule)) {
        allowedBy = source();
        return false;
      }
      if (error) errors.push(error);
      return true;
    });
    if (allowedBy !== undefined) return { decision: "Allow", reason: `RBAC: allowed by ${allowedBy}` };
    return { decision: "NoOpinion", reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : "" };
  }

  rulesFor(user: UserInfo, namespace: string): SubjectRules {
    const resourceRules: PolicyRule[] = [];
    const nonResourceRules: PolicyRule[] = [];
    if (user.groups.includes(MASTERS_GROUP)) {
      resourceRules.push(everything);
      nonResourceRules.push(everyUrl);
    }
    const { rules, errors } = this.#resolver.rulesFor(user, namespace);
    for (const rule of rules) {
      if (rule.resources.length > 0) resourceRules.push(rule);
      if (rule.nonResourceURLs.length > 0) nonResourceRules.push(rule);
    }
    const result: SubjectRules = { resourceRules, nonResourceRules, incomplete: false };
    if (errors.length > 0) result.evaluationError = aggregateMessage(errors);
    return result;
  }
}
