import {
  formatLabelSelector as formatSelector,
  isEmptySelector as selectsEverything,
  type WireLabelSelector,
} from "../../../runtime/labels/label-selector.js";
import type { JsonValue } from "../json.js";
import { arrayAt, objectsAt, stringAt, stringMapAt } from "./json-read.js";

/** A stored object's selector as the runtime reads it; what is not a string map or list is ignored. */
function wireSelectorOf(selector: JsonValue | undefined): WireLabelSelector {
  return {
    matchLabels: stringMapAt(selector, "matchLabels"),
    matchExpressions: objectsAt(selector, "matchExpressions").map((expression) => ({
      key: stringAt(expression, "key") ?? "",
      operator: stringAt(expression, "operator") ?? "Exists",
      values: arrayAt(expression, "values").filter((v): v is string => typeof v === "string"),
    })),
  };
}

/** True when the selector has neither matchLabels nor matchExpressions (it would select everything). */
export function isEmptySelector(selector: JsonValue | undefined): boolean {
  return selectsEverything(wireSelectorOf(selector));
}

/** metav1.FormatLabelSelector: requirements sorted by key, `<none>` when empty. */
export function formatLabelSelector(selector: JsonValue | undefined): string {
  return formatSelector(wireSelectorOf(selector)) || "<none>";
}

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` when empty. */
export function formatLabels(labels: Record<string, string>): string {
  const text = Object.keys(labels)
    .sort()
    .map((key) => `${key}=${labels[key] ?? ""}`)
    .join(",");
  return text === "" ? "<none>" : text;
}
