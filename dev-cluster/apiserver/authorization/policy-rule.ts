import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { AuthorizationAttributes } from "./attributes.js";

/** rbac.authorization.k8s.io/v1 PolicyRule, with every list present (empty when absent). */
export interface PolicyRule {
  verbs: readonly string[];
  apiGroups: readonly string[];
  resources: readonly string[];
  resourceNames: readonly string[];
  nonResourceURLs: readonly string[];
}

const ALL = "*";

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Reads one PolicyRule from stored JSON; missing lists are empty, as Go's nil slices. */
export function policyRuleOf(value: JsonObject): PolicyRule {
  return {
    verbs: strings(value.verbs),
    apiGroups: strings(value.apiGroups),
    resources: strings(value.resources),
    resourceNames: strings(value.resourceNames),
    nonResourceURLs: strings(value.nonResourceURLs),
  };
}

/** The `rules` of a Role or ClusterRole. */
export function policyRulesOf(role: JsonObject): PolicyRule[] {
  const rules = role.rules;
  return Array.isArray(rules) ? rules.filter(isJsonObject).map(policyRuleOf) : [];
}

/** A PolicyRule as stored JSON, leaving out empty lists as the Go types' omitempty does. */
export function policyRuleJson(rule: PolicyRule): JsonObject {
  const json: JsonObject = { verbs: [...rule.verbs] };
  if (rule.apiGroups.length > 0) json.apiGroups = [...rule.apiGroups];
  if (rule.resources.length > 0) json.resources = [...rule.resources];
  if (rule.resourceNames.length > 0) json.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs.length > 0) json.nonResourceURLs = [...rule.nonResourceURLs];
  return json;
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((candidate) => candidate === ALL || candidate === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return rule.apiGroups.some((candidate) => candidate === ALL || candidate === group);
}

/**
 * Whether the rule names the resource: `*`, the exact `resource` or `resource/subresource`, or
 * `*\/subresource` for any resource's subresource of that name.
 */
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  return rule.resources.some(
    (candidate) =>
      candidate === ALL ||
      candidate === combinedResource ||
      (subresource !== "" && candidate === `*/${subresource}`),
  );
}

/** A rule with resourceNames only matches requests that name one of them (never unnamed lists or creates). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(name);
}

/** `*`, the exact path, or a prefix when the rule's URL ends in `*`. */
export function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return rule.nonResourceURLs.some((candidate) => {
    if (candidate === ALL || candidate === path) return true;
    return candidate.endsWith(ALL) && path.startsWith(candidate.replace(/\*+$/, ""));
  });
}

/** RBAC's RuleAllows: whether one rule grants the request. */
export function ruleAllows(attributes: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attributes.verb)) return false;
  if (!attributes.resourceRequest) return nonResourceUrlMatches(rule, attributes.path);
  const combined =
    attributes.subresource === "" ? attributes.resource : `${attributes.resource}/${attributes.subresource}`;
  return (
    apiGroupMatches(rule, attributes.apiGroup) &&
    resourceMatches(rule, combined, attributes.subresource) &&
    resourceNameMatches(rule, attributes.name)
  );
}
