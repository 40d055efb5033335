import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OwnWrites, sameJson } from "./own-writes.js";

describe("OwnWrites", () => {
  test("the cache is behind while it shows the version our write replaced; then it is forgotten", () => {
    const writes = new OwnWrites();
    assert.equal(writes.cacheIsBehind("ns/a", "5"), false);
    writes.wrote("ns/a", "5", "6");
    assert.equal(writes.cacheIsBehind("ns/a", "5"), true);
    assert.equal(writes.cacheIsBehind("ns/a", "6"), false);
    assert.equal(writes.cacheIsBehind("ns/a", "5"), false, "forgotten once caught up");
  });

  test("a write the server found to change nothing is not waited for (no event would come)", () => {
    const writes = new OwnWrites();
    writes.wrote("ns/a", "5", "5");
    assert.equal(writes.cacheIsBehind("ns/a", "5"), false);
  });
});

describe("sameJson", () => {
  test("absent and undefined are equal, key order does not matter, values do", () => {
    assert.ok(sameJson({ a: 1, b: undefined, c: { d: [1] } }, { c: { d: [1] }, a: 1 }));
    assert.ok(!sameJson({ a: [1, 2] }, { a: [2, 1] }));
    assert.ok(sameJson(undefined, undefined));
    assert.ok(!sameJson(undefined, {}));
  });
});
