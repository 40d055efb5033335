import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { microTime, parseWireTime, wireTime, wireTimeMillis } from "./wire-time.js";

const at = Date.parse("2024-05-01T10:00:00.987Z");

describe("wire time", () => {
  test("metav1.Time drops the fraction of a second", () => {
    assert.equal(wireTime(at), "2024-05-01T10:00:00Z");
    assert.equal(wireTime(Date.parse("2024-05-01T10:00:00Z")), "2024-05-01T10:00:00Z");
  });

  test("the millisecond and microsecond forms keep the fraction", () => {
    assert.equal(wireTimeMillis(at), "2024-05-01T10:00:00.987Z");
    assert.equal(microTime(at), "2024-05-01T10:00:00.987000Z");
  });

  test("parses every form back; absent or unparsable is undefined", () => {
    assert.equal(parseWireTime(wireTimeMillis(at)), at);
    assert.equal(parseWireTime(microTime(at)), at);
    assert.equal(parseWireTime(wireTime(at)), at - 987);
    assert.equal(parseWireTime(undefined), undefined);
    assert.equal(parseWireTime(null), undefined);
    assert.equal(parseWireTime("yesterday"), undefined);
  });
});
