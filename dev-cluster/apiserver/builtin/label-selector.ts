import type { JsonValue } from "../json.js";
import { arrayAt, objectsAt, stringAt, stringMapAt } from "./json-read.js";

/** One requirement of a metav1.LabelSelector, after matchLabels became `key In (value)` equalities. */
interface Requirement {
  key: string;
  operator: "=" | "In" | "NotIn" | "Exists" | "DoesNotExist";
  values: string[];
}

function requirementsOf(selector: JsonValue | undefined): Requirement[] {
  const equalities = Object.entries(stringMapAt(selector, "matchLabels")).map(
    ([key, value]): Requirement => ({ key, operator: "=", values: [value] }),
  );
  const expressions = objectsAt(selector, "matchExpressions").map(
    (expression): Requirement => ({
      key: stringAt(expression, "key") ?? "",
      operator: (stringAt(expression, "operator") ?? "Exists") as Requirement["operator"],
      values: arrayAt(expression, "values").filter((v): v is string => typeof v === "string"),
    }),
  );
  return [...equalities, ...expressions];
}

/** True when the selector has neither matchLabels nor matchExpressions (it would select everything). */
export function isEmptySelector(selector: JsonValue | undefined): boolean {
  return requirementsOf(selector).length === 0;
}

function requirementText({ key, operator, values }: Requirement): string {
  const sorted = [...values].sort();
  switch (operator) {
    case "=":
      return `${key}=${sorted[0] ?? ""}`;
    case "In":
      return `${key} in (${sorted.join(",")})`;
    case "NotIn":
      return `${key} notin (${sorted.join(",")})`;
    case "Exists":
      return key;
    case "DoesNotExist":
      return `!${key}`;
    default:
      return key;
  }
}

/** metav1.FormatLabelSelector: requirements sorted by key, `<none>` when empty. */
export function formatLabelSelector(selector: JsonValue | undefined): string {
  const text = requirementsOf(selector)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(requirementText)
    .join(",");
  return text === "" ? "<none>" : text;
}

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` when empty. */
export function formatLabels(labels: Record<string, string>): string {
  const text = Object.keys(labels)
    .sort()
    .map((key) => `${key}=${labels[key] ?? ""}`)
    .join(",");
  return text === "" ? "<none>" : text;
}
