/**
 * metav1.LabelSelector: matched locally (cache lookups, the API's own validation) and rendered in
 * its text form for the server (list and watch `labelSelector`) and for tables. An empty selector
 * matches everything. Matching trusts the selector's keys and values (it comes from a cache or a
 * schema-checked object); label-matcher.ts validates selectors that come from users.
 */
import { type LabelOperator, type LabelRequirement, requirementMatches } from "./label-requirement.js";

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** A selector as a kind's type spells it: the operator is any string there (and matches nothing when unknown). */
export interface WireLabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: string;
    readonly values?: readonly string[];
  }[];
}

type Labels = Readonly<Record<string, string>> | undefined;

const SELECTOR_OPERATORS: ReadonlySet<string> = new Set(["In", "NotIn", "Exists", "DoesNotExist"]);

export function labelsMatch(selector: WireLabelSelector, labels: Labels): boolean {
  return requirementsOf(selector).every(
    (requirement) => requirement !== undefined && requirementMatches(requirement, labels),
  );
}

/** True when the selector has neither matchLabels nor matchExpressions (it would select everything). */
export function isEmptySelector(selector: WireLabelSelector | undefined): boolean {
  return (
    Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0
  );
}

/**
 * The selector's text form as LabelSelectorAsSelector(...).String() gives it: requirements
 * sorted by key, e.g. `app=web,!legacy,tier in (a,b)`; "" when empty.
 */
export function formatLabelSelector(selector: WireLabelSelector): string {
  return requirementsOf(selector)
    .filter((requirement): requirement is LabelRequirement => requirement !== undefined)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(requirementText)
    .join(",");
}

/** matchLabels become `key = value` requirements; an unknown operator becomes undefined. */
function requirementsOf(selector: WireLabelSelector): (LabelRequirement | undefined)[] {
  const equalities = Object.entries(selector.matchLabels ?? {}).map(
    ([key, value]): LabelRequirement => ({ key, operator: "Equals", values: [value] }),
  );
  const expressions = (selector.matchExpressions ?? []).map(({ key, operator, values = [] }) =>
    SELECTOR_OPERATORS.has(operator)
      ? { key, operator: operator as LabelOperator, values: [...values].sort() }
      : undefined,
  );
  return [...equalities, ...expressions];
}

function requirementText({ key, operator, values }: LabelRequirement): string {
  switch (operator) {
    case "Equals":
      return `${key}=${values[0] ?? ""}`;
    case "In":
      return `${key} in (${values.join(",")})`;
    case "NotIn":
      return `${key} notin (${values.join(",")})`;
    case "DoesNotExist":
      return `!${key}`;
    default:
      return key;
  }
}
