import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { jsonEqual } from "./json-equality.js";

describe("jsonEqual", () => {
  test("absent and undefined are equal, key order does not matter, values do", () => {
    assert.ok(jsonEqual({ a: 1, b: undefined, c: { d: [1] } }, { c: { d: [1] }, a: 1 }));
    assert.ok(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 }));
    assert.ok(!jsonEqual({ a: [1, 2] }, { a: [2, 1] }));
    assert.ok(!jsonEqual([1, 2], [2, 1]));
    assert.ok(!jsonEqual({ a: 1 }, { a: "1" }));
    assert.ok(jsonEqual(undefined, undefined));
    assert.ok(!jsonEqual(undefined, {}));
  });

  test("null is a value: it differs from an absent member, from undefined and from an empty object", () => {
    assert.ok(!jsonEqual({ a: null }, {}));
    assert.ok(!jsonEqual(null, undefined));
    assert.ok(!jsonEqual(null, {}));
    assert.ok(jsonEqual({ a: null }, { a: null }));
  });

  test("arrays and objects never equal each other; an undefined array item is written as null", () => {
    assert.ok(!jsonEqual([], {}));
    assert.ok(!jsonEqual({ 0: 1, length: 1 }, [1]));
    assert.ok(jsonEqual([undefined], [null]));
    assert.ok(!jsonEqual([1], [1, 2]));
  });

  test("agrees with a JSON round trip on API objects", () => {
    const built = {
      metadata: { name: "a", labels: undefined },
      status: { conditions: [{ type: "Ready", status: "True" }] },
    };
    const fromServer = JSON.parse(
      JSON.stringify({
        status: { conditions: [{ status: "True", type: "Ready" }] },
        metadata: { name: "a" },
      }),
    );
    assert.ok(jsonEqual(built, fromServer));
    assert.ok(!jsonEqual(built, { ...fromServer, status: {} }));
  });
});
