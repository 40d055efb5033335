import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  findCondition,
  hasCondition,
  putCondition,
  removeCondition,
  setCondition,
  setConditions,
} from "./conditions.js";

const T0 = Date.parse("2024-01-01T00:00:00.700Z");

describe("setCondition", () => {
  test("a new condition gets a transition time with milliseconds and a null probe time", () => {
    assert.deepEqual(setCondition(undefined, { type: "Ready", status: "False", reason: "X" }, T0), [
      {
        type: "Ready",
        status: "False",
        reason: "X",
        lastProbeTime: null,
        lastTransitionTime: "2024-01-01T00:00:00.700Z",
      },
    ]);
  });

  test("the transition time moves only with the status; the position is kept", () => {
    const first = setCondition(
      [{ type: "A", status: "True" }],
      { type: "Ready", status: "False", reason: "X" },
      T0,
    );
    const reworded = setCondition(
      first,
      { type: "Ready", status: "False", reason: "Y", message: "m" },
      T0 + 60_000,
    );
    assert.equal(reworded[1]?.lastTransitionTime, "2024-01-01T00:00:00.700Z");
    assert.equal(reworded[1]?.reason, "Y");
    const flipped = setCondition(reworded, { type: "Ready", status: "True" }, T0 + 60_000);
    assert.equal(flipped[1]?.lastTransitionTime, "2024-01-01T00:01:00.700Z");
    assert.deepEqual(
      flipped.map((c) => c.type),
      ["A", "Ready"],
    );
  });

  test("an update in front of others stays in front", () => {
    const list = setCondition(
      [
        { type: "Ready", status: "True" },
        { type: "Paused", status: "True" },
      ],
      { type: "Ready", status: "False" },
      T0,
    );
    assert.deepEqual(
      list.map((c) => c.type),
      ["Ready", "Paused"],
    );
  });

  test("the same condition again leaves the list equal", () => {
    const first = setCondition(undefined, { type: "Ready", status: "True" }, T0);
    assert.deepEqual(setCondition(first, { type: "Ready", status: "True" }, T0 + 60_000), first);
  });

  test("an empty reason or message is left out", () => {
    assert.deepEqual(
      setCondition(undefined, { type: "Ready", status: "True", reason: "", message: "" }, T0),
      [
        {
          type: "Ready",
          status: "True",
          lastProbeTime: null,
          lastTransitionTime: "2024-01-01T00:00:00.700Z",
        },
      ],
    );
  });

  test("does not change the list it is given", () => {
    const given = [{ type: "Ready", status: "True" as const }];
    setCondition(given, { type: "Ready", status: "False" }, T0);
    assert.deepEqual(given, [{ type: "Ready", status: "True" }]);
  });
});

describe("putCondition, removeCondition, findCondition, hasCondition", () => {
  test("copied as is, and removed", () => {
    const copied = putCondition(
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
      removeCondition(copied, "Ready").map((c) => c.type),
      ["B"],
    );
  });

  test("found by type; matched by status and, when asked, reason", () => {
    const list = [{ type: "PodScheduled", status: "False" as const, reason: "Unschedulable" }];
    assert.equal(findCondition(list, "PodScheduled"), list[0]);
    assert.equal(findCondition(list, "Ready"), undefined);
    assert.equal(hasCondition(list, "PodScheduled", "False"), true);
    assert.equal(hasCondition(list, "PodScheduled", "False", "Unschedulable"), true);
    assert.equal(hasCondition(list, "PodScheduled", "False", "Other"), false);
    assert.equal(hasCondition(list, "PodScheduled", "True"), false);
    assert.equal(hasCondition(undefined, "PodScheduled", "False"), false);
  });
});

describe("setConditions with probe times (the operator's conditions)", () => {
  const available = {
    type: "Available",
    status: "False",
    reason: "DeploymentInProgress",
    message: "m",
  } as const;

  test("new conditions get both times, with milliseconds", () => {
    assert.deepEqual(setConditions(undefined, [available], T0, "onChange"), [
      {
        ...available,
        lastProbeTime: "2024-01-01T00:00:00.700Z",
        lastTransitionTime: "2024-01-01T00:00:00.700Z",
      },
    ]);
  });

  test("the same condition again keeps both times: nothing to write", () => {
    const first = setConditions(undefined, [available], T0, "onChange");
    assert.deepEqual(setConditions(first, [available], T0 + 60_000, "onChange"), first);
  });

  test("a new message moves the probe time only; a new status moves both", () => {
    const first = setConditions(undefined, [available], T0, "onChange");
    const reworded = setConditions(first, [{ ...available, message: "other" }], T0 + 60_000, "onChange");
    assert.equal(reworded[0]?.lastTransitionTime, "2024-01-01T00:00:00.700Z");
    assert.equal(reworded[0]?.lastProbeTime, "2024-01-01T00:01:00.700Z");
    const flipped = setConditions(
      reworded,
      [{ ...available, status: "True", reason: "AllComponentsReady" }],
      T0 + 120_000,
      "onChange",
    );
    assert.equal(flipped[0]?.lastTransitionTime, "2024-01-01T00:02:00.700Z");
  });

  test("conditions not in the update are dropped; the update's order is kept", () => {
    const first = setConditions(undefined, [available, { ...available, type: "Degraded" }], T0, "onChange");
    const next = setConditions(first, [{ ...available, type: "Progressing" }, available], T0, "onChange");
    assert.deepEqual(
      next.map((condition) => condition.type),
      ["Progressing", "Available"],
    );
  });
});
