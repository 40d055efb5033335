import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { applyJsonPatch } from "./json-patch.js";

const pod = (): JsonObject => ({
  metadata: { name: "p", labels: { app: "web" }, finalizers: ["a", "b"] },
  spec: { containers: [{ name: "c1", image: "i1" }] },
});

function rejects(run: () => unknown, code: number, reason: string, message?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.equal(error.reason, reason);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe("applyJsonPatch", () => {
  const applies: [string, unknown, JsonObject][] = [
    [
      "add a label",
      [{ op: "add", path: "/metadata/labels/tier", value: "fe" }],
      { ...pod(), metadata: { name: "p", labels: { app: "web", tier: "fe" }, finalizers: ["a", "b"] } },
    ],
    [
      "append with -",
      [{ op: "add", path: "/metadata/finalizers/-", value: "c" }],
      { ...pod(), metadata: { name: "p", labels: { app: "web" }, finalizers: ["a", "b", "c"] } },
    ],
    [
      "insert at index",
      [{ op: "add", path: "/metadata/finalizers/0", value: "z" }],
      { ...pod(), metadata: { name: "p", labels: { app: "web" }, finalizers: ["z", "a", "b"] } },
    ],
    [
      "remove array item",
      [{ op: "remove", path: "/metadata/finalizers/0" }],
      { ...pod(), metadata: { name: "p", labels: { app: "web" }, finalizers: ["b"] } },
    ],
    [
      "replace nested value",
      [{ op: "replace", path: "/spec/containers/0/image", value: "i2" }],
      { ...pod(), spec: { containers: [{ name: "c1", image: "i2" }] } },
    ],
    [
      "move a key",
      [{ op: "move", from: "/metadata/labels/app", path: "/metadata/labels/role" }],
      { ...pod(), metadata: { name: "p", labels: { role: "web" }, finalizers: ["a", "b"] } },
    ],
    [
      "copy a value",
      [{ op: "copy", from: "/metadata/name", path: "/metadata/labels/name" }],
      { ...pod(), metadata: { name: "p", labels: { app: "web", name: "p" }, finalizers: ["a", "b"] } },
    ],
    [
      "test then replace",
      [
        { op: "test", path: "/metadata/labels", value: { app: "web" } },
        { op: "replace", path: "/metadata/labels/app", value: "api" },
      ],
      { ...pod(), metadata: { name: "p", labels: { app: "api" }, finalizers: ["a", "b"] } },
    ],
    [
      "escaped pointer tokens",
      [{ op: "add", path: "/metadata/labels/example.com~1a~0b", value: "x" }],
      {
        ...pod(),
        metadata: { name: "p", labels: { app: "web", "example.com/a~b": "x" }, finalizers: ["a", "b"] },
      },
    ],
    ["empty patch", [], pod()],
    ["replace whole document", [{ op: "replace", path: "", value: { kind: "X" } }], { kind: "X" }],
  ];
  for (const [name, patch, expected] of applies) {
    test(`applies: ${name}`, () => {
      assert.deepEqual(applyJsonPatch(pod(), patch), expected);
    });
  }

  const badBodies: [string, unknown][] = [
    [
      "an object body (client-node sending a merge patch as json-patch)",
      { metadata: { labels: { a: "b" } } },
    ],
    ["a string", "add"],
    ["null", null],
    ["a non-object operation", ["add"]],
    ["a null operation", [null]],
    ["a nested array", [[{ op: "add", path: "/a", value: 1 }]]],
  ];
  for (const [name, body] of badBodies) {
    test(`400 for ${name}`, () => rejects(() => applyJsonPatch(pod(), body), 400, "BadRequest"));
  }

  const failing: [string, unknown, RegExp][] = [
    [
      "failed test",
      [{ op: "test", path: "/metadata/name", value: "q" }],
      /jsonpatch test operation does not apply/,
    ],
    ["test on a missing path", [{ op: "test", path: "/metadata/nope", value: "q" }], /missing path/],
    [
      "replace of a missing key",
      [{ op: "replace", path: "/spec/nope", value: 1 }],
      /replace operation does not apply/,
    ],
    [
      "remove of a missing key",
      [{ op: "remove", path: "/metadata/annotations" }],
      /remove operation does not apply/,
    ],
    ["add under a missing parent", [{ op: "add", path: "/status/phase/x", value: 1 }], /missing path/],
    ["add past the array end", [{ op: "add", path: "/metadata/finalizers/5", value: "x" }], /out of bounds/],
    ["non-index array token", [{ op: "add", path: "/metadata/finalizers/x", value: "x" }], /array index/],
    ["leading-zero index", [{ op: "remove", path: "/metadata/finalizers/01" }], /missing path/],
    ["move from a missing path", [{ op: "move", from: "/nope", path: "/a" }], /from path/],
    ["move into own child", [{ op: "move", from: "/metadata", path: "/metadata/x" }], /own child/],
    ["unknown op", [{ op: "merge", path: "/a", value: 1 }], /unexpected kind/],
    ["missing path", [{ op: "add", value: 1 }], /missing "path"/],
    ["missing value", [{ op: "add", path: "/a" }], /missing "value"/],
    ["missing from", [{ op: "copy", path: "/a" }], /missing "from"/],
    ["path without leading slash", [{ op: "add", path: "a", value: 1 }], /must start with/],
    ["bad ~ escape", [{ op: "add", path: "/a~2", value: 1 }], /escape/],
    ["remove the whole document", [{ op: "remove", path: "" }], /whole document/],
    ["result not an object", [{ op: "replace", path: "", value: [1] }], /not a JSON object/],
    ["__proto__ path", [{ op: "add", path: "/__proto__/polluted", value: true }], /__proto__/],
    [
      "constructor path",
      [{ op: "add", path: "/constructor/prototype/polluted", value: true }],
      /constructor/,
    ],
    ["__proto__ as from", [{ op: "copy", from: "/__proto__", path: "/x" }], /__proto__/],
    ["inherited property is not a path", [{ op: "remove", path: "/toString" }], /missing path/],
    ["inherited property as parent", [{ op: "add", path: "/hasOwnProperty/x", value: 1 }], /missing path/],
  ];
  for (const [name, patch, message] of failing) {
    test(`422 for ${name}`, () => rejects(() => applyJsonPatch(pod(), patch), 422, "Invalid", message));
  }

  test("prototype pollution attempts leave Object.prototype untouched", () => {
    for (const path of [
      "/__proto__/polluted",
      "/constructor/prototype/polluted",
      "/metadata/__proto__/polluted",
    ]) {
      assert.throws(() => applyJsonPatch(pod(), [{ op: "add", path, value: true }]));
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("413 for more operations than kube-apiserver allows", () => {
    const patch = Array.from({ length: 10001 }, () => ({ op: "test", path: "/metadata/name", value: "p" }));
    rejects(() => applyJsonPatch(pod(), patch), 413, "RequestEntityTooLarge");
  });

  test("works on a copy: the document and the patch are not modified", () => {
    const document = pod();
    const patch = [
      { op: "add", path: "/extra", value: { nested: { n: 1 } } },
      { op: "replace", path: "/extra/nested/n", value: 2 },
      { op: "remove", path: "/metadata/finalizers/0" },
    ];
    const patchCopy = structuredClone(patch);
    const result = applyJsonPatch(document, patch);
    assert.deepEqual(document, pod());
    assert.deepEqual(patch, patchCopy);
    assert.deepEqual(result.extra, { nested: { n: 2 } });
  });

  test("a failure midway leaves the input document untouched", () => {
    const document = pod();
    rejects(
      () =>
        applyJsonPatch(document, [
          { op: "remove", path: "/metadata/labels" },
          { op: "test", path: "/metadata/name", value: "other" },
        ]),
      422,
      "Invalid",
    );
    assert.deepEqual(document, pod());
  });
});
