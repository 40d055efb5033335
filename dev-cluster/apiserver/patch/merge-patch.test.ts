import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "../json.js";
import { applyMergePatch } from "./merge-patch.js";

describe("applyMergePatch", () => {
  // The examples of RFC 7386 appendix A.
  const cases: [string, JsonValue, JsonValue, JsonValue][] = [
    ["replaces a value", { a: "b" }, { a: "c" }, { a: "c" }],
    ["adds a key", { a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    ["null deletes a key", { a: "b" }, { a: null }, {}],
    ["null deletes only its key", { a: "b", b: "c" }, { a: null }, { b: "c" }],
    ["arrays replace", { a: ["b"] }, { a: "c" }, { a: "c" }],
    ["a value replaces an array", { a: "c" }, { a: ["b"] }, { a: ["b"] }],
    ["nested merge with delete", { a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    ["arrays of objects replace", { a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    ["array target replaced", ["a", "b"], ["c", "d"], ["c", "d"]],
    ["array patch replaces object", { a: "b" }, ["c"], ["c"]],
    ["null patch replaces", { a: "foo" }, null, null],
    ["string patch replaces", { a: "foo" }, "bar", "bar"],
    ["null value deleted when new", { e: null }, { a: 1 }, { e: null, a: 1 }],
    ["object patch on array target", [1, 2], { a: "b", c: null }, { a: "b" }],
    ["nulls inside new objects vanish", {}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [name, target, patch, expected] of cases) {
    test(name, () => {
      assert.deepEqual(applyMergePatch(target, patch), expected);
    });
  }

  test("never mutates its inputs nor shares objects with them", () => {
    const target = { metadata: { labels: { a: "1" } }, list: [1] };
    const patch = { metadata: { labels: { b: "2" } }, extra: { deep: true } };
    const targetCopy = structuredClone(target);
    const patchCopy = structuredClone(patch);
    const result = applyMergePatch(target, patch) as { extra: { deep: boolean }; list: number[] };
    assert.deepEqual(target, targetCopy);
    assert.deepEqual(patch, patchCopy);
    result.extra.deep = false;
    result.list.push(2);
    assert.equal(patch.extra.deep, true);
    assert.deepEqual(target.list, [1]);
  });

  test("a __proto__ key is stored as data and pollutes nothing", () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as JsonValue;
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result).sort(), ["__proto__", "a"]);
    assert.equal(JSON.stringify(result), '{"__proto__":{"polluted":true},"a":1}');
  });
});
