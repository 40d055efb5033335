import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TerminalError } from "../../../runtime/index.js";
import { resolveFenceposts, scaledValue } from "./int-or-percent.js";

describe("maxSurge / maxUnavailable", () => {
  test("numbers are counts; percentages of the total round as asked", () => {
    assert.equal(scaledValue(2, 10, true, 0), 2);
    assert.equal(scaledValue("3", 10, true, 0), 3);
    assert.equal(scaledValue("25%", 10, true, 0), 3);
    assert.equal(scaledValue("25%", 10, false, 0), 2);
    assert.equal(scaledValue(undefined, 4, true, "50%"), 2);
  });

  test("anything else is a terminal error", () => {
    assert.throws(() => scaledValue("ten", 10, true, 0), TerminalError);
  });

  test("surge rounds up, unavailable down, and both zero means one unavailable", () => {
    assert.deepEqual(resolveFenceposts("25%", "25%", 3), { surge: 1, unavailable: 0 });
    assert.deepEqual(resolveFenceposts("25%", "25%", 10), { surge: 3, unavailable: 2 });
    assert.deepEqual(resolveFenceposts(0, 0, 5), { surge: 0, unavailable: 1 });
    assert.deepEqual(resolveFenceposts(0, "10%", 5), { surge: 0, unavailable: 1 });
  });
});
