import type { ResourceRegistry } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import { type AdmissionAttributes, isNamespaceResource } from "./admission-attributes.js";
import type { Webhook, WebhookRule } from "./webhook-configuration.js";

type RuleTarget = Pick<AdmissionAttributes, "operation" | "subresource" | "namespace" | "type">;

function listed(values: readonly string[], value: string): boolean {
  return values.includes("*") || values.includes(value);
}

/** `pods`, `pods/status`, `*` (every resource, no subresource), `*\/*`, `pods/*`, `*\/status`. */
function resourceMatches(patterns: readonly string[], resource: string, subresource: string): boolean {
  return patterns.some((pattern) => {
    const slash = pattern.indexOf("/");
    const res = slash < 0 ? pattern : pattern.slice(0, slash);
    const sub = slash < 0 ? "" : pattern.slice(slash + 1);
    return (res === "*" || res === resource) && (sub === "*" || sub === subresource);
  });
}

/** A Namespace is cluster-scoped, but Namespaced rules exclude it and Cluster rules include it. */
function scopeMatches(rule: WebhookRule, target: RuleTarget): boolean {
  if (rule.scope === "*") return true;
  const clusterScoped = isNamespaceResource(target) || target.namespace === "";
  return rule.scope === "Cluster" ? clusterScoped : !clusterScoped;
}

/** admission/plugin/webhook/predicates/rules.Matcher, for the request seen as `type`'s version. */
export function ruleMatches(
  rule: WebhookRule,
  target: RuleTarget,
  type: ResourceType = target.type,
): boolean {
  return (
    listed(rule.operations, target.operation) &&
    listed(rule.apiGroups, type.group) &&
    listed(rule.apiVersions, type.version) &&
    resourceMatches(rule.resources, type.plural, target.subresource) &&
    scopeMatches(rule, target)
  );
}

/**
 * The version of the resource a webhook is called with: the request's own when a rule matches
 * it, otherwise (matchPolicy Equivalent) another served version of the same group and resource
 * that a rule matches (the object is converted to it). Undefined when the webhook does not apply.
 */
export function invocationType(
  webhook: Webhook,
  target: RuleTarget,
  registry: ResourceRegistry,
): ResourceType | undefined {
  if (webhook.rules.some((rule) => ruleMatches(rule, target))) return target.type;
  if (webhook.matchPolicy !== "Equivalent") return undefined;
  const equivalents = registry
    .all()
    .filter(
      (type) =>
        type.group === target.type.group &&
        type.plural === target.type.plural &&
        type.version !== target.type.version,
    );
  return equivalents.find((type) => webhook.rules.some((rule) => ruleMatches(rule, target, type)));
}

/** Configurations of admission itself are never sent to webhooks, so a broken webhook cannot lock them. */
const EXEMPT_RESOURCES = new Set([
  "mutatingwebhookconfigurations",
  "validatingwebhookconfigurations",
  "validatingadmissionpolicies",
  "validatingadmissionpolicybindings",
  "mutatingadmissionpolicies",
  "mutatingadmissionpolicybindings",
]);

export function isExemptFromWebhooks(type: ResourceType): boolean {
  return type.group === "admissionregistration.k8s.io" && EXEMPT_RESOURCES.has(type.plural);
}
