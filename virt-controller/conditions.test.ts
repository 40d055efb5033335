import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withCondition, withConditionAsIs, withoutCondition } from "./conditions.js";

const T0 = Date.parse("2024-01-01T00:00:00.700Z");

describe("conditions", () => {
  test("a new condition gets a transition time in whole seconds and a null probe time", () => {
    assert.deepEqual(withCondition(undefined, { type: "Ready", status: "False", reason: "X" }, T0), [
      {
        type: "Ready",
        status: "False",
        reason: "X",
        lastProbeTime: null,
        lastTransitionTime: "2024-01-01T00:00:00Z",
      },
    ]);
  });

  test("the transition time moves only with the status; the position is kept", () => {
    const first = withCondition(
      [{ type: "A", status: "True" }],
      { type: "Ready", status: "False", reason: "X" },
      T0,
    );
    const reworded = withCondition(
      first,
      { type: "Ready", status: "False", reason: "Y", message: "m" },
      T0 + 60_000,
    );
    assert.equal(reworded[1]?.lastTransitionTime, "2024-01-01T00:00:00Z");
    assert.equal(reworded[1]?.reason, "Y");
    const flipped = withCondition(reworded, { type: "Ready", status: "True" }, T0 + 60_000);
    assert.equal(flipped[1]?.lastTransitionTime, "2024-01-01T00:01:00Z");
    assert.deepEqual(
      flipped.map((c) => c.type),
      ["A", "Ready"],
    );
  });

  test("copied as is, and removed", () => {
    const copied = withConditionAsIs(
      [
        { type: "Ready", status: "False" },
        { type: "B", status: "True" },
      ],
      { type: "Ready", status: "True", lastTransitionTime: "t" },
    );
    assert.deepEqual(
      copied.map((c) => [c.type, c.status]),
      [
        ["Ready", "True"],
        ["B", "True"],
      ],
    );
    assert.deepEqual(
      withoutCondition(copied, "Ready").map((c) => c.type),
      ["B"],
    );
  });
});
