import type { PolicyRule } from "./policy-rule.js";

const ALL = "*";

function rule(fields: Partial<PolicyRule>): PolicyRule {
  return { verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...fields };
}

/**
 * rbac's BreakdownRule: one rule per verb × group × resource (× name), and per verb × URL, so
 * coverage can be decided one permission at a time.
 */
export function breakdownRule(policy: PolicyRule): PolicyRule[] {
  const atoms: PolicyRule[] = [];
  for (const group of policy.apiGroups) {
    for (const resource of policy.resources) {
      for (const verb of policy.verbs) {
        const base = { apiGroups: [group], resources: [resource], verbs: [verb] };
        if (policy.resourceNames.length === 0) atoms.push(rule(base));
        for (const name of policy.resourceNames) atoms.push(rule({ ...base, resourceNames: [name] }));
      }
    }
  }
  for (const url of policy.nonResourceURLs) {
    for (const verb of policy.verbs) atoms.push(rule({ nonResourceURLs: [url], verbs: [verb] }));
  }
  return atoms;
}

const hasAll = (set: readonly string[], wanted: readonly string[]): boolean =>
  wanted.every((item) => set.includes(item));

function resourcesCovered(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes(ALL) || hasAll(owned, wanted)) return true;
  return wanted.every((resource) => {
    if (owned.includes(resource)) return true;
    const slash = resource.indexOf("/");
    return slash >= 0 && owned.includes(`*/${resource.slice(slash + 1)}`);
  });
}

function urlCovered(owned: string, wanted: string): boolean {
  if (owned === wanted) return true;
  return owned.endsWith(ALL) && wanted.startsWith(owned.replace(/\*+$/, ""));
}

/** Whether one owned rule grants everything an atom (one verb, resource or URL, name) asks for. */
export function ruleCovers(owner: PolicyRule, atom: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, atom.verbs);
  const groups = owner.apiGroups.includes(ALL) || hasAll(owner.apiGroups, atom.apiGroups);
  const resources = resourcesCovered(owner.resources, atom.resources);
  const urls = atom.nonResourceURLs.every((url) => owner.nonResourceURLs.some((o) => urlCovered(o, url)));
  const names =
    owner.resourceNames.length === 0 ||
    (atom.resourceNames.length > 0 && hasAll(owner.resourceNames, atom.resourceNames));
  return verbs && groups && resources && urls && names;
}

/**
 * rbac's Covers: whether the owned rules grant everything the wanted rules do, and the
 * permissions (as broken-down atoms) they lack.
 */
export function covers(
  owned: readonly PolicyRule[],
  wanted: readonly PolicyRule[],
): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const wantedRule of wanted) {
    for (const atom of breakdownRule(wantedRule)) {
      if (!owned.some((owner) => ruleCovers(owner, atom))) missing.push(atom);
    }
  }
  return { covered: missing.length === 0, missing };
}
