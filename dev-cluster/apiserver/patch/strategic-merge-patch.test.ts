import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { JsonObject } from "../json.js";
import type { FieldSemantics, FieldSemanticsLookup } from "../resource-type.js";
import { applyStrategicMergePatch } from "./strategic-merge-patch.js";

/** A small schema: `items` merge by name (with nested `ports` by port), `tags` is a set, `args` atomic. */
const table: Record<string, FieldSemantics> = {
  items: { list: { type: "map", keys: ["name"] } },
  "items.ports": { list: { type: "map", keys: ["port", "protocol"] } },
  "items.tags": { list: { type: "set" } },
  tags: { list: { type: "set" } },
  args: { list: { type: "atomic" } },
  frozen: { map: "atomic" },
  "wrapper.items": { list: { type: "map", keys: ["name"] } },
};
const semantics: FieldSemanticsLookup = (path) => table[path.join(".")];

const apply = (original: JsonObject, patch: JsonObject): JsonObject =>
  applyStrategicMergePatch(original, patch, semantics);

function rejects400(original: JsonObject, patch: JsonObject, message: RegExp): void {
  assert.throws(
    () => apply(original, patch),
    (error: unknown) =>
      error instanceof ApiError &&
      error.code === 400 &&
      error.reason === "BadRequest" &&
      message.test(error.message),
  );
}

describe("applyStrategicMergePatch: maps and scalars", () => {
  const cases: [string, JsonObject, JsonObject, JsonObject][] = [
    ["maps merge recursively", { a: { b: 1, c: 2 } }, { a: { c: 3, d: 4 } }, { a: { b: 1, c: 3, d: 4 } }],
    ["null deletes", { a: { b: 1, c: 2 } }, { a: { b: null } }, { a: { c: 2 } }],
    ["null for a missing key is dropped", { a: 1 }, { b: null }, { a: 1 }],
    ["scalar replaces map", { a: { b: 1 } }, { a: "x" }, { a: "x" }],
    ["map replaces scalar", { a: "x" }, { a: { b: 1, c: null } }, { a: { b: 1 } }],
    ["atomic map replaced", { frozen: { a: 1, b: 2 } }, { frozen: { c: 3 } }, { frozen: { c: 3 } }],
    [
      "$patch: replace on a map",
      { a: { b: 1, c: 2 }, z: 1 },
      { a: { $patch: "replace", d: 4 } },
      { a: { d: 4 }, z: 1 },
    ],
    ["$patch: delete on a map", { a: { b: 1 }, z: 1 }, { a: { $patch: "delete" } }, { z: 1 }],
    ["$patch: delete on a missing map", { z: 1 }, { a: { $patch: "delete" } }, { z: 1 }],
    [
      "$patch: merge on a map is a plain merge",
      { a: { b: 1 } },
      { a: { $patch: "merge", c: 2 } },
      { a: { b: 1, c: 2 } },
    ],
    ["$patch: replace at the top", { a: 1, b: 2 }, { $patch: "replace", c: 3 }, { c: 3 }],
    ["$patch: delete at the top", { a: 1 }, { $patch: "delete" }, {}],
    ["$ref stays data", { s: {} }, { s: { $ref: "#/x" } }, { s: { $ref: "#/x" } }],
  ];
  for (const [name, original, patch, expected] of cases) {
    test(name, () => assert.deepEqual(apply(original, patch), expected));
  }
});

describe("applyStrategicMergePatch: lists", () => {
  const cases: [string, JsonObject, JsonObject, JsonObject][] = [
    ["atomic lists are replaced", { args: ["a", "b"] }, { args: ["c"] }, { args: ["c"] }],
    ["lists without semantics are replaced", { other: [1, 2] }, { other: [3] }, { other: [3] }],
    [
      "sets are unioned, new items first",
      { tags: ["a", "b"] },
      { tags: ["b", "c"] },
      { tags: ["a", "b", "c"] },
    ],
    ["set union of a new item only", { tags: ["a", "b"] }, { tags: ["z"] }, { tags: ["z", "a", "b"] }],
    ["sets deduplicate", { tags: ["a", "a"] }, { tags: ["a"] }, { tags: ["a"] }],
    [
      "map lists merge by key",
      {
        items: [
          { name: "a", v: 1, keep: true },
          { name: "b", v: 1 },
        ],
      },
      { items: [{ name: "a", v: 2 }] },
      {
        items: [
          { name: "a", v: 2, keep: true },
          { name: "b", v: 1 },
        ],
      },
    ],
    [
      "nested map lists merge by their own key",
      { items: [{ name: "a", ports: [{ port: 80, x: 1 }, { port: 443 }] }] },
      { items: [{ name: "a", ports: [{ port: 80, x: 2 }] }] },
      { items: [{ name: "a", ports: [{ port: 80, x: 2 }, { port: 443 }] }] },
    ],
    [
      "new map-list items come before server-only items (upstream ordering)",
      { items: [{ name: "a" }, { name: "b" }] },
      { items: [{ name: "c" }] },
      { items: [{ name: "c" }, { name: "a" }, { name: "b" }] },
    ],
    [
      "server-only items interleave by live order (design proposal example)",
      { items: [{ name: "B" }, { name: "C" }, { name: "A" }] },
      { items: [{ name: "A", x: 1 }, { name: "B", x: 1 }, { name: "D" }] },
      { items: [{ name: "C" }, { name: "A", x: 1 }, { name: "B", x: 1 }, { name: "D" }] },
    ],
    [
      "$patch: delete removes every item with the key",
      { items: [{ name: "a" }, { name: "b" }, { name: "a", dup: true }] },
      { items: [{ name: "a", $patch: "delete" }] },
      { items: [{ name: "b" }] },
    ],
    [
      "$patch: replace replaces the whole list",
      { items: [{ name: "a", v: 1 }, { name: "b" }] },
      { items: [{ name: "c", gone: null }, { $patch: "replace" }] },
      { items: [{ name: "c" }] },
    ],
    [
      "a merge list that did not exist takes the patch items, cleaned",
      {},
      {
        items: [
          { name: "a", x: null, tags: ["t"] },
          { name: "b", $patch: "delete" },
        ],
      },
      { items: [{ name: "a", tags: ["t"] }] },
    ],
    [
      "items merged inside a list keep nested null deletes",
      { items: [{ name: "a", x: 1, y: 2 }] },
      { items: [{ name: "a", x: null }] },
      { items: [{ name: "a", y: 2 }] },
    ],
    [
      "atomic list items are cleaned of directives",
      {},
      { args: [{ a: 1, b: null }, { $patch: "delete" }, "s"] },
      { args: [{ a: 1 }, "s"] },
    ],
    ["null deletes a merge list", { items: [{ name: "a" }], tags: ["x"] }, { items: null }, { tags: ["x"] }],
  ];
  for (const [name, original, patch, expected] of cases) {
    test(name, () => assert.deepEqual(apply(original, patch), expected));
  }
});

describe("applyStrategicMergePatch: parallel-list directives", () => {
  const cases: [string, JsonObject, JsonObject, JsonObject][] = [
    [
      "$deleteFromPrimitiveList removes values",
      { tags: ["a", "b", "c", "b"] },
      { "$deleteFromPrimitiveList/tags": ["b", "c"] },
      { tags: ["a"] },
    ],
    [
      "$deleteFromPrimitiveList on a missing list is a no-op",
      { a: 1 },
      { "$deleteFromPrimitiveList/tags": ["b"] },
      { a: 1 },
    ],
    [
      "$deleteFromPrimitiveList inside a merged item",
      { items: [{ name: "a", tags: ["x", "y"] }] },
      { items: [{ name: "a", "$deleteFromPrimitiveList/tags": ["x"] }] },
      { items: [{ name: "a", tags: ["y"] }] },
    ],
    [
      "$setElementOrder reorders primitives",
      { tags: ["a", "b", "c"] },
      { "$setElementOrder/tags": ["b", "c", "a"] },
      { tags: ["b", "c", "a"] },
    ],
    [
      "$setElementOrder reorders a map list without changes",
      {
        items: [
          { name: "a", v: 1 },
          { name: "b", v: 2 },
        ],
      },
      { "$setElementOrder/items": [{ name: "b" }, { name: "a" }] },
      {
        items: [
          { name: "b", v: 2 },
          { name: "a", v: 1 },
        ],
      },
    ],
    [
      "$setElementOrder places an added item (kubectl apply)",
      { items: [{ name: "a" }, { name: "b" }] },
      {
        "$setElementOrder/items": [{ name: "a" }, { name: "c" }, { name: "b" }],
        items: [{ name: "c", v: 1 }],
      },
      { items: [{ name: "a" }, { name: "c", v: 1 }, { name: "b" }] },
    ],
    [
      "$setElementOrder with a deletion",
      { items: [{ name: "a" }, { name: "b" }, { name: "c" }] },
      { "$setElementOrder/items": [{ name: "c" }, { name: "a" }], items: [{ name: "b", $patch: "delete" }] },
      { items: [{ name: "c" }, { name: "a" }] },
    ],
    [
      "server-only items come first when ordering",
      { items: [{ name: "s" }, { name: "a" }, { name: "b" }] },
      { "$setElementOrder/items": [{ name: "b" }, { name: "a" }] },
      { items: [{ name: "s" }, { name: "b" }, { name: "a" }] },
    ],
    [
      "$setElementOrder with $deleteFromPrimitiveList",
      { tags: ["a", "b", "c"] },
      { "$setElementOrder/tags": ["c", "a", "d"], tags: ["d"], "$deleteFromPrimitiveList/tags": ["b"] },
      { tags: ["c", "a", "d"] },
    ],
    [
      "$setElementOrder for a list that exists nowhere does nothing",
      { a: 1 },
      { "$setElementOrder/items": [{ name: "x" }] },
      { a: 1 },
    ],
    [
      "$setElementOrder for an atomic list is dropped",
      { args: ["a", "b"] },
      { "$setElementOrder/args": ["b", "a"], args: ["c"] },
      { args: ["c"] },
    ],
    [
      "$setElementOrder nested in a new item does not leak",
      { wrapper: {} },
      {
        wrapper: {
          "$setElementOrder/items": [{ name: "y" }, { name: "x" }],
          items: [{ name: "y" }, { name: "x" }],
        },
      },
      { wrapper: { items: [{ name: "y" }, { name: "x" }] } },
    ],
    [
      "$retainKeys clears unlisted fields",
      { src: { hostPath: { path: "/x" }, name: "v" } },
      { src: { $retainKeys: ["emptyDir", "name"], emptyDir: {} } },
      { src: { emptyDir: {}, name: "v" } },
    ],
    [
      "$retainKeys in a merged list item (volume source switch)",
      { items: [{ name: "v", hostPath: { path: "/x" } }] },
      { items: [{ name: "v", $retainKeys: ["name", "emptyDir"], emptyDir: {} }] },
      { items: [{ name: "v", emptyDir: {} }] },
    ],
  ];
  for (const [name, original, patch, expected] of cases) {
    test(name, () => assert.deepEqual(apply(original, patch), expected));
  }
});

describe("applyStrategicMergePatch: malformed patches are 400", () => {
  const cases: [string, JsonObject, JsonObject, RegExp][] = [
    ["unknown directive", {}, { $foo: 1 }, /unknown strategic merge patch directive "\$foo"/],
    [
      "unknown prefixed directive",
      {},
      { a: { "$setElementOrdr/x": [] } },
      /a: unknown strategic merge patch directive/,
    ],
    ["unknown $patch value", { a: {} }, { a: { $patch: "explode" } }, /unknown patch type/],
    [
      "unknown $patch in a list item",
      { items: [] },
      { items: [{ name: "a", $patch: "explode" }] },
      /unknown patch type/,
    ],
    [
      "missing merge key",
      { items: [{ name: "a" }] },
      { items: [{ v: 1 }] },
      /does not contain declared merge key: name/,
    ],
    ["delete without merge key", { items: [{ name: "a" }] }, { items: [{ $patch: "delete" }] }, /merge key/],
    ["primitive in a map list", { items: [] }, { items: ["a"] }, /must be maps/],
    ["object in a set", { tags: [] }, { tags: [{ a: 1 }] }, /without merge key/],
    ["$setElementOrder not a list", {}, { "$setElementOrder/tags": "a" }, /must be a list/],
    [
      "$setElementOrder disagreeing with the patch",
      { tags: [] },
      { "$setElementOrder/tags": ["a", "b"], tags: ["b", "a"] },
      /doesn't match/,
    ],
    [
      "$setElementOrder missing a patch item",
      { items: [] },
      { "$setElementOrder/items": [{ name: "a" }], items: [{ name: "b" }] },
      /doesn't match/,
    ],
    [
      "$setElementOrder item without key",
      { items: [] },
      { "$setElementOrder/items": [{ x: 1 }] },
      /does not name/,
    ],
    [
      "$deleteFromPrimitiveList not a list",
      { tags: [] },
      { "$deleteFromPrimitiveList/tags": "a" },
      /must be a list/,
    ],
    ["$retainKeys not a list of strings", {}, { a: { $retainKeys: [1] } }, /\$retainKeys must be a list/],
    ["field set but not retained", {}, { a: { $retainKeys: ["x"], y: 1 } }, /missing from \$retainKeys/],
    ["directive without a field", {}, { "$setElementOrder/": [] }, /names no field/],
  ];
  for (const [name, original, patch, message] of cases) {
    test(name, () => rejects400(original, patch, message));
  }
});

describe("applyStrategicMergePatch: safety", () => {
  test("inputs are not mutated and the result shares nothing with the patch", () => {
    const original: JsonObject = { items: [{ name: "a", tags: ["x"] }], m: { k: 1 } };
    const patch: JsonObject = { items: [{ name: "b", deep: { v: 1 } }], m: { k: 2, n: { deep: true } } };
    const originalCopy = structuredClone(original);
    const patchCopy = structuredClone(patch);
    const result = apply(original, patch);
    assert.deepEqual(original, originalCopy);
    assert.deepEqual(patch, patchCopy);
    ((result.m as JsonObject).n as JsonObject).deep = false;
    assert.deepEqual(patch, patchCopy);
  });

  test("__proto__ in a patch is data, not a prototype", () => {
    const patch = JSON.parse('{"a": {"__proto__": {"polluted": true}}}') as JsonObject;
    const result = apply({ a: {} }, patch);
    const a = result.a as JsonObject;
    assert.equal(Object.getPrototypeOf(a), Object.prototype);
    assert.deepEqual(Object.keys(a), ["__proto__"]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("a non-object patch is a 400", () => {
    assert.throws(
      () => applyStrategicMergePatch({}, [] as unknown as JsonObject, semantics),
      (error: unknown) => error instanceof ApiError && error.code === 400,
    );
  });
});
