import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withConditions } from "./conditions.js";

const T0 = Date.parse("2024-01-01T00:00:00.700Z");
const available = {
  type: "Available",
  status: "False",
  reason: "DeploymentInProgress",
  message: "m",
} as const;

describe("KubeVirt conditions", () => {
  test("new conditions get both times, in whole seconds", () => {
    assert.deepEqual(withConditions(undefined, [available], T0), [
      { ...available, lastProbeTime: "2024-01-01T00:00:00Z", lastTransitionTime: "2024-01-01T00:00:00Z" },
    ]);
  });

  test("the same condition again keeps both times: nothing to write", () => {
    const first = withConditions(undefined, [available], T0);
    assert.deepEqual(withConditions(first, [available], T0 + 60_000), first);
  });

  test("a new message moves the probe time only; a new status moves both", () => {
    const first = withConditions(undefined, [available], T0);
    const reworded = withConditions(first, [{ ...available, message: "other" }], T0 + 60_000);
    assert.equal(reworded[0]?.lastTransitionTime, "2024-01-01T00:00:00Z");
    assert.equal(reworded[0]?.lastProbeTime, "2024-01-01T00:01:00Z");
    const flipped = withConditions(
      reworded,
      [{ ...available, status: "True", reason: "AllComponentsReady" }],
      T0 + 120_000,
    );
    assert.equal(flipped[0]?.lastTransitionTime, "2024-01-01T00:02:00Z");
  });

  test("conditions not in the update are dropped; the update's order is kept", () => {
    const first = withConditions(undefined, [available, { ...available, type: "Degraded" }], T0);
    const next = withConditions(first, [{ ...available, type: "Progressing" }, available], T0);
    assert.deepEqual(
      next.map((condition) => condition.type),
      ["Progressing", "Available"],
    );
  });
});
