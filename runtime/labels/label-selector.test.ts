import assert from "node:assert/strict";
import { test } from "node:test";
import { formatLabelSelector, labelsMatch } from "./label-selector.js";

test("label selectors match like metav1.LabelSelector and render their text form", () => {
  const selector = {
    matchLabels: { app: "web" },
    matchExpressions: [
      { key: "tier", operator: "In" as const, values: ["b", "a"] },
      { key: "legacy", operator: "DoesNotExist" as const },
      { key: "zone", operator: "NotIn" as const, values: ["x"] },
    ],
  };
  assert.equal(labelsMatch(selector, { app: "web", tier: "a" }), true);
  assert.equal(labelsMatch(selector, { app: "web", tier: "c" }), false);
  assert.equal(labelsMatch(selector, { app: "web", tier: "a", legacy: "1" }), false);
  assert.equal(labelsMatch(selector, { app: "web", tier: "a", zone: "x" }), false);
  assert.equal(labelsMatch(selector, undefined), false);
  assert.equal(labelsMatch({}, undefined), true, "an empty selector matches everything");
  assert.equal(labelsMatch({ matchExpressions: [{ key: "k", operator: "Exists" }] }, { k: "" }), true);
  assert.equal(
    formatLabelSelector(selector),
    "app=web,!legacy,tier in (a,b),zone notin (x)",
    "sorted by key",
  );
  assert.equal(labelsMatch({ matchExpressions: [{ key: "k", operator: "Unknown" }] }, { k: "" }), false);
  assert.equal(labelsMatch({ matchExpressions: [{ key: "constructor", operator: "Exists" }] }, {}), false);
});
