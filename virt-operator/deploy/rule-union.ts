import type { PolicyRule } from "../strategy/policy-rule.js";

/**
 * The union of RBAC rules, as few rules as it takes: every (group, resource) gets the union of
 * the verbs any rule gives it, and resources of one group with the same verbs share a rule.
 * Deterministic (sorted), so a generated bundle changes only when a permission does.
 */
export function unionOfRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const verbsByResource = new Map<string, Set<string>>();
  for (const rule of rules) {
    for (const group of rule.apiGroups) {
      for (const resource of rule.resources) {
        const key = JSON.stringify([group, resource, [...(rule.resourceNames ?? [])].sort()]);
        const verbs = verbsByResource.get(key) ?? new Set<string>();
        for (const verb of rule.verbs) verbs.add(verb);
        verbsByResource.set(key, verbs);
      }
    }
  }
  const merged = new Map<string, { group: string; names: string[]; verbs: string[]; resources: string[] }>();
  for (const [key, verbSet] of verbsByResource) {
    const [group, resource, names] = JSON.parse(key) as [string, string, string[]];
    const verbs = sortVerbs(verbSet);
    const groupKey = JSON.stringify([group, verbs, names]);
    const entry = merged.get(groupKey) ?? { group, names, verbs, resources: [] };
    entry.resources.push(resource);
    merged.set(groupKey, entry);
  }
  return [...merged.values()]
    .map((entry) => ({
      apiGroups: [entry.group],
      resources: entry.resources.sort(),
      verbs: entry.verbs,
      ...(entry.names.length > 0 ? { resourceNames: entry.names } : {}),
    }))
    .sort((a, b) => compare(ruleSortKey(a), ruleSortKey(b)));
}

/** Whether `granted` allows everything `wanted` asks for (per group, resource and verb). */
export function rulesCover(granted: readonly PolicyRule[], wanted: PolicyRule): boolean {
  const wantedNames = wanted.resourceNames ?? [];
  // A rule limited to some names covers only a request limited to (some of) those names.
  const namesCovered = (rule: PolicyRule) =>
    rule.resourceNames === undefined ||
    (wantedNames.length > 0 && wantedNames.every((name) => rule.resourceNames?.includes(name)));
  return wanted.apiGroups.every((group) =>
    wanted.resources.every((resource) =>
      wanted.verbs.every((verb) =>
        granted.some(
          (rule) =>
            rule.apiGroups.includes(group) &&
            rule.resources.includes(resource) &&
            rule.verbs.includes(verb) &&
            namesCovered(rule),
        ),
      ),
    ),
  );
}

/** Read verbs first, then writes, as people write them. */
const VERB_ORDER = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];

function sortVerbs(verbs: Set<string>): string[] {
  const rank = (verb: string) => {
    const index = VERB_ORDER.indexOf(verb);
    return index === -1 ? VERB_ORDER.length : index;
  };
  return [...verbs].sort((a, b) => rank(a) - rank(b) || compare(a, b));
}

function ruleSortKey(rule: PolicyRule): string {
  return `${rule.apiGroups[0] ?? ""}\u0000${rule.resources[0] ?? ""}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
