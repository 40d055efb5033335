import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import {
  type FieldRequirement,
  matchesFieldSelector,
  parseFieldSelector,
  validateFieldSelector,
} from "./field-selector.js";

function isBadRequest(pattern: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    assert.equal(error.code, 400);
    assert.equal(error.reason, "BadRequest");
    assert.match(error.message, pattern);
    return true;
  };
}

describe("parseFieldSelector", () => {
  const cases: [string, FieldRequirement[]][] = [
    ["", []],
    ["metadata.name=web", [{ field: "metadata.name", operator: "=", value: "web" }]],
    ["metadata.name==web", [{ field: "metadata.name", operator: "=", value: "web" }]],
    ["status.phase!=Running", [{ field: "status.phase", operator: "!=", value: "Running" }]],
    [
      "a=1,b!=2",
      [
        { field: "a", operator: "=", value: "1" },
        { field: "b", operator: "!=", value: "2" },
      ],
    ],
    ["a=1,", [{ field: "a", operator: "=", value: "1" }]],
    ["a=", [{ field: "a", operator: "=", value: "" }]],
    ["a=x\\,y", [{ field: "a", operator: "=", value: "x,y" }]],
    ["a=x\\=y", [{ field: "a", operator: "=", value: "x=y" }]],
    ["a=x\\\\y", [{ field: "a", operator: "=", value: "x\\y" }]],
    [
      "a=x\\,y,b=z",
      [
        { field: "a", operator: "=", value: "x,y" },
        { field: "b", operator: "=", value: "z" },
      ],
    ],
    ["spec.nodeName=", [{ field: "spec.nodeName", operator: "=", value: "" }]],
  ];
  for (const [selector, expected] of cases) {
    test(JSON.stringify(selector), () => assert.deepEqual(parseFieldSelector(selector), expected));
  }

  const errors: [string, RegExp][] = [
    ["metadata.name", /invalid selector: 'metadata.name'; can't understand 'metadata.name'/],
    ["a=1,b", /can't understand 'b'/],
    ["a=x=y", /unescaped character in value: =/],
    ["a=x\\y", /invalid escape sequence: \\y/],
    ["a=x\\", /invalid escape sequence: \\$/],
  ];
  for (const [selector, pattern] of errors) {
    test(`400: ${JSON.stringify(selector)}`, () => {
      assert.throws(() => parseFieldSelector(selector), isBadRequest(pattern));
    });
  }
});

describe("matchesFieldSelector", () => {
  const fields = { "metadata.name": "web", "metadata.namespace": "default", "status.phase": "Running" };
  const cases: [string, Record<string, string>, boolean][] = [
    ["", fields, true],
    ["metadata.name=web", fields, true],
    ["metadata.name=db", fields, false],
    ["metadata.name!=db", fields, true],
    ["metadata.name=web,status.phase!=Running", fields, false],
    ["spec.nodeName=", fields, true],
    ["spec.nodeName!=", fields, false],
    ["spec.nodeName!=n1", fields, true],
    ["toString=", {}, true],
    ["a=x\\,y", { a: "x,y" }, true],
  ];
  for (const [selector, values, expected] of cases) {
    test(`${JSON.stringify(selector)} → ${expected}`, () => {
      assert.equal(matchesFieldSelector(parseFieldSelector(selector), values), expected);
    });
  }
});

describe("validateFieldSelector", () => {
  const allowed = new Set(["metadata.name", "metadata.namespace", "status.phase"]);
  test("accepts supported fields", () => {
    assert.doesNotThrow(() =>
      validateFieldSelector(parseFieldSelector("metadata.name=a,status.phase!=b"), allowed, "pods"),
    );
  });
  test("refuses an unsupported field like kube-apiserver", () => {
    assert.throws(
      () => validateFieldSelector(parseFieldSelector("metadata.name=a,spec.foo=b"), allowed, "pods"),
      (error: unknown) => {
        assert.ok(isBadRequest(/^field label not supported: spec\.foo$/)(error));
        assert.equal((error as ApiError).details?.kind, "pods");
        return true;
      },
    );
  });
});
