import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Clock } from "../clock/clock.js";
import { Expectations } from "./expectations.js";

function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_000;
  return {
    now: () => now,
    schedule: () => () => {},
    advance(ms) {
      now += ms;
    },
  };
}

describe("Expectations", () => {
  test("creations are unsatisfied until every expected create is observed", () => {
    const expectations = new Expectations();
    assert.equal(expectations.satisfied("ns/parent"), true, "nothing expected");
    expectations.expectCreations("ns/parent", 2);
    assert.equal(expectations.satisfied("ns/parent"), false);
    expectations.creationObserved("ns/parent");
    assert.equal(expectations.satisfied("ns/parent"), false);
    expectations.creationObserved("ns/parent");
    assert.equal(expectations.satisfied("ns/parent"), true);
    assert.deepEqual(expectations.pending("ns/parent"), { adds: 0, deletes: 0 });
  });

  test("a failed create lowers the expectation, and raise adds a second batch", () => {
    const expectations = new Expectations();
    expectations.expectCreations("p", 3);
    expectations.lower("p", 1, 0);
    expectations.raise("p", 0, 1);
    assert.deepEqual(expectations.pending("p"), { adds: 2, deletes: 1 });
    expectations.creationObserved("p");
    expectations.creationObserved("p");
    expectations.deletionObserved("p");
    assert.equal(expectations.satisfied("p"), true);
  });

  test("tracked deletions only count the children we deleted, once each", () => {
    const expectations = new Expectations();
    expectations.expectDeletionsOf("p", ["ns/a", "ns/b"]);
    expectations.deletionObservedOf("p", "ns/other");
    expectations.deletionObservedOf("p", "ns/a");
    expectations.deletionObservedOf("p", "ns/a");
    assert.equal(expectations.satisfied("p"), false);
    expectations.deletionObservedOf("p", "ns/b");
    assert.equal(expectations.satisfied("p"), true);
  });

  test("expectations expire after the TTL, and delete forgets them", () => {
    const clock = manualClock();
    const expectations = new Expectations({ ttlMs: 1_000, clock });
    expectations.expectDeletions("p", 1);
    clock.advance(999);
    assert.equal(expectations.satisfied("p"), false);
    clock.advance(2);
    assert.equal(expectations.satisfied("p"), true, "a missed watch event cannot block the parent forever");
    expectations.expectCreations("q", 1);
    expectations.delete("q");
    assert.equal(expectations.satisfied("q"), true);
    assert.equal(expectations.pending("q"), undefined);
  });
});
