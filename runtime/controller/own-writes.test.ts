import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OwnWrites } from "./own-writes.js";

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

  test("a write that removed the object waits until the cache no longer shows the old version", () => {
    const writes = new OwnWrites();
    writes.wrote("ns/a", "5", undefined);
    assert.equal(writes.cacheIsBehind("ns/a", "5"), true);
    assert.equal(writes.cacheIsBehind("ns/a", undefined), false);
  });

  test("a write without a version to base on, and a forgotten key, are never waited for", () => {
    const writes = new OwnWrites();
    writes.wrote("ns/a", undefined, "6");
    assert.equal(writes.cacheIsBehind("ns/a", undefined), false);
    writes.wrote("ns/b", "5", "6");
    writes.forget("ns/b");
    assert.equal(writes.cacheIsBehind("ns/b", "5"), false);
  });
});
