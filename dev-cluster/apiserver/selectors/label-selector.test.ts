import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseLabelRequirements } from "../../../runtime/labels/label-selector-parser.js";
import { ApiError } from "../api-error.js";
import { labelSelectorFromObject, parseLabelSelector } from "./label-selector.js";

function isBadRequest(pattern: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    assert.equal(error.code, 400);
    assert.equal(error.reason, "BadRequest");
    assert.match(error.message, pattern);
    return true;
  };
}

const web = { app: "web", tier: "fe", "example.com/team": "core", replicas: "3" };
const db = { app: "db", tier: "be" };

describe("parseLabelSelector matching", () => {
  // selector, labels, expected match
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ["", web, true],
    ["   ", undefined, true],
    ["app=web", web, true],
    ["app=web", db, false],
    ["app==web", web, true],
    ["app = web", web, true],
    ["app!=web", web, false],
    ["app!=web", db, true],
    ["app!=web", {}, true],
    ["app!=web", undefined, true],
    ["app=web", undefined, false],
    ["app in (web, db)", db, true],
    ["app in (x,y)", web, false],
    ["app notin (web)", web, false],
    ["app notin (web)", db, true],
    ["app notin (web)", {}, true],
    ["app", web, true],
    ["missing", web, false],
    ["!missing", web, true],
    ["!app", web, false],
    ["app=web,tier=fe", web, true],
    ["app=web, tier=be", web, false],
    [" app = web , ! missing ", web, true],
    ["example.com/team=core", web, true],
    ["replicas>2", web, true],
    ["replicas<3", web, false],
    ["app>2", web, false],
    ["app=", { app: "" }, true],
    ["app=", web, false],
    ["app in (in, notin)", { app: "notin" }, true],
    ["app in ()", { app: "" }, true],
    ["app in (web,)", { app: "" }, true],
    ["app in (,web)", web, true],
    ["app,tier notin (be)", web, true],
    ["app,tier notin (be)", db, false],
    ["toString", {}, false],
    ["!toString", {}, true],
  ];
  for (const [selector, labels, expected] of cases) {
    test(`${JSON.stringify(selector)} on ${JSON.stringify(labels)} → ${expected}`, () => {
      assert.equal(parseLabelSelector(selector)(labels), expected);
    });
  }
});

describe("parseLabelSelector requirements", () => {
  test("operators and sorted, deduplicated values", () => {
    assert.deepEqual(parseLabelRequirements("a in (z, y, z),!b,c!=d,e"), [
      { key: "a", operator: "In", values: ["y", "z"] },
      { key: "b", operator: "DoesNotExist", values: [] },
      { key: "c", operator: "NotEquals", values: ["d"] },
      { key: "e", operator: "Exists", values: [] },
    ]);
  });
});

describe("parseLabelSelector errors are 400 naming the selector", () => {
  const cases: [string, RegExp][] = [
    ["app=web,", /"app=web,".*found '', expected: identifier after ','/],
    [",app", /found ',', expected: !, identifier, or 'end of string'/],
    ["app web", /found 'web', expected: \[!= == = > < in notin\]/],
    ["app in (web", /found '', expected: ',' or '\)'/],
    ["app in web", /found 'web', expected: '\('/],
    ["app in (a b)", /found 'b', expected: ',' or '\)'/],
    ["app in (a)(", /expected: ',' or 'end of string'/],
    ["app = = web", /found '=', expected: identifier/],
    ["app=web=x", /found '=', expected: ',' or 'end of string'/],
    ["!app=web", /found '=', expected: ',' or 'end of string'/],
    ["= web", /found '=', expected: !, identifier/],
    ["in", /found 'in'/],
    ["-bad=x", /key: Invalid value: "-bad"/],
    ["a/b/c=x", /qualified name/],
    ["/name=x", /prefix part must be non-empty/],
    ["Upper.Case/name=x", /prefix part/],
    [`${"k".repeat(64)}=x`, /no more than 63 characters/],
    ["app=bad value!", /found 'value'/],
    ["app=-x", /values\[0\]\[app\]: Invalid value: "-x"/],
    [`app=${"v".repeat(64)}`, /no more than 63 characters/],
    ["replicas>x", /must be an integer/],
    ["replicas<-1", /Invalid value: "-1"/],
  ];
  for (const [selector, pattern] of cases) {
    test(JSON.stringify(selector), () => {
      assert.throws(() => parseLabelSelector(selector), isBadRequest(pattern));
      assert.throws(
        () => parseLabelSelector(selector),
        (error: unknown) =>
          error instanceof ApiError && error.message.includes(`label selector ${JSON.stringify(selector)}`),
      );
    });
  }
});

describe("labelSelectorFromObject", () => {
  const cases: [string, unknown, Record<string, string> | undefined, boolean][] = [
    ["{} selects everything", {}, web, true],
    ["{} selects unlabelled objects", {}, undefined, true],
    ["null selects nothing", null, web, false],
    ["undefined selects nothing", undefined, web, false],
    ["matchLabels", { matchLabels: { app: "web" } }, web, true],
    ["matchLabels mismatch", { matchLabels: { app: "web", tier: "be" } }, web, false],
    ["In", { matchExpressions: [{ key: "app", operator: "In", values: ["db", "web"] }] }, web, true],
    ["NotIn", { matchExpressions: [{ key: "app", operator: "NotIn", values: ["web"] }] }, web, false],
    ["Exists", { matchExpressions: [{ key: "tier", operator: "Exists" }] }, web, true],
    [
      "DoesNotExist",
      { matchExpressions: [{ key: "tier", operator: "DoesNotExist", values: [] }] },
      web,
      false,
    ],
    [
      "both parts must hold",
      { matchLabels: { app: "web" }, matchExpressions: [{ key: "tier", operator: "In", values: ["be"] }] },
      web,
      false,
    ],
    ["null parts are empty", { matchLabels: null, matchExpressions: null }, web, true],
  ];
  for (const [name, selector, labels, expected] of cases) {
    test(name, () => assert.equal(labelSelectorFromObject(selector)(labels), expected));
  }

  const errors: [string, unknown, RegExp][] = [
    ["not an object", "app=web", /must be an object/],
    ["matchLabels not a map", { matchLabels: ["a"] }, /matchLabels must be a map/],
    ["matchLabels value not a string", { matchLabels: { a: 1 } }, /matchLabels\[a\] must be a string/],
    ["invalid matchLabels value", { matchLabels: { a: "b c" } }, /Invalid value: "b c"/],
    ["matchExpressions not a list", { matchExpressions: {} }, /must be a list/],
    [
      "unknown operator",
      { matchExpressions: [{ key: "a", operator: "Gt", values: ["1"] }] },
      /"Gt" is not a valid label selector operator/,
    ],
    ["In without values", { matchExpressions: [{ key: "a", operator: "In" }] }, /values set can't be empty/],
    [
      "Exists with values",
      { matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] },
      /must be empty/,
    ],
    [
      "non-string values",
      { matchExpressions: [{ key: "a", operator: "In", values: [1] }] },
      /list of strings/,
    ],
    ["bad key", { matchExpressions: [{ key: "a b", operator: "Exists" }] }, /key: Invalid value: "a b"/],
  ];
  for (const [name, selector, pattern] of errors) {
    test(`400: ${name}`, () => {
      assert.throws(() => labelSelectorFromObject(selector), isBadRequest(pattern));
    });
  }
});
