/**
 * metav1.LabelSelector: matched locally (cache lookups) and rendered in its text form for the
 * server (list and watch `labelSelector`). An empty selector matches everything.
 */
export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

type Labels = Readonly<Record<string, string>> | undefined;

export function labelsMatch(selector: LabelSelector, labels: Labels): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels?.[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((requirement) => requirementMatches(requirement, labels));
}

function requirementMatches(requirement: LabelSelectorRequirement, labels: Labels): boolean {
  const value = labels?.[requirement.key];
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
  }
}

/** The selector's text form, e.g. `app=web,tier in (a,b),!legacy`. */
export function formatLabelSelector(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    if (operator === "Exists") parts.push(key);
    else if (operator === "DoesNotExist") parts.push(`!${key}`);
    else parts.push(`${key} ${operator === "In" ? "in" : "notin"} (${[...values].sort().join(",")})`);
  }
  return parts.join(",");
}
