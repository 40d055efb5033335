import assert from "node:assert/strict";
import { test } from "node:test";
import { nodeSelectorRequirementMatches } from "./node-selector-requirement.js";

test("node selector requirements match as NodeSelectorRequirementsAsSelector reads them", () => {
  const labels = { zone: "a", cores: "8" };
  assert.equal(
    nodeSelectorRequirementMatches({ key: "zone", operator: "In", values: ["a", "b"] }, labels),
    true,
  );
  assert.equal(
    nodeSelectorRequirementMatches({ key: "zone", operator: "NotIn", values: ["a"] }, labels),
    false,
  );
  assert.equal(nodeSelectorRequirementMatches({ key: "gpu", operator: "DoesNotExist" }, labels), true);
  assert.equal(
    nodeSelectorRequirementMatches({ key: "cores", operator: "Gt", values: ["+4"] }, labels),
    true,
  );
  assert.equal(
    nodeSelectorRequirementMatches({ key: "cores", operator: "Lt", values: ["8"] }, labels),
    false,
  );
  assert.equal(
    nodeSelectorRequirementMatches({ key: "cores", operator: "Gt", values: ["1", "2"] }, labels),
    false,
    "Gt takes exactly one value",
  );
  assert.equal(
    nodeSelectorRequirementMatches({ key: "zone", operator: "Near", values: ["a"] }, labels),
    false,
  );
});
