import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isSubsetOf } from "./is-subset-of.js";

describe("isSubsetOf", () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ["equal scalars", 2, 2, true],
    ["different scalars", 2, 3, false],
    ["a number is not its string", 2, "2", false],
    ["null equals null", null, null, true],
    ["null is not a missing field", { a: null }, {}, false],
    ["extra live keys are fine (defaults, status)", { a: 1 }, { a: 1, b: 2, status: {} }, true],
    ["a missing key is drift", { a: 1, b: 2 }, { a: 1 }, false],
    ["nested objects by key", { spec: { replicas: 2 } }, { spec: { replicas: 2, paused: false } }, true],
    ["a hand-scaled Deployment is drift", { spec: { replicas: 2 } }, { spec: { replicas: 5 } }, false],
    ["arrays element-wise", [{ name: "a" }, { name: "b" }], [{ name: "a", x: 1 }, { name: "b" }], true],
    [
      "arrays in another order are drift",
      [{ name: "a" }, { name: "b" }],
      [{ name: "b" }, { name: "a" }],
      false,
    ],
    ["an extra element is drift", [{ verbs: ["get"] }], [{ verbs: ["get"] }, { verbs: ["delete"] }], false],
    ["a missing element is drift", [1, 2], [1], false],
    ["an array is not an object", { a: [] }, { a: {} }, false],
    ["an object is not an array", { a: {} }, { a: [] }, false],
    ["an object is not a scalar", { a: { b: 1 } }, { a: "x" }, false],
    ["undefined desired fields are not compared", { a: undefined, b: 1 }, { b: 1 }, true],
    ["empty desired object is a subset of any object", {}, { a: 1 }, true],
  ];
  for (const [name, desired, live, expected] of cases) {
    test(name, () => assert.equal(isSubsetOf(desired, live), expected));
  }

  test("an edited ClusterRole rule is drift, an unrelated annotation is not", () => {
    const desired = {
      metadata: { labels: { "app.kubernetes.io/managed-by": "virt-operator" } },
      rules: [{ apiGroups: ["kubevirt.io"], resources: ["virtualmachines"], verbs: ["get", "list"] }],
    };
    const live = structuredClone(desired) as typeof desired & { metadata: Record<string, unknown> };
    live.metadata.annotations = { "someone/else": "x" };
    assert.equal(isSubsetOf(desired, live), true);
    const edited = structuredClone(live);
    edited.rules[0]!.verbs = ["get"];
    assert.equal(isSubsetOf(desired, edited), false);
  });
});
