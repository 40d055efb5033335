import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import { kubeJsonPathResults, toJsonPathPlus } from "./kube-jsonpath.js";

const OBJECT: JsonObject = {
  metadata: { name: "a", labels: { "app.kubernetes.io/name": "web" } },
  spec: { list: ["x", "y", "z"], items: [{ name: "one" }, { name: "two" }] },
  status: {
    conditions: [
      { type: "Ready", status: "True" },
      { type: "Synced", status: "False" },
    ],
  },
};

describe("kubeJsonPathResults", () => {
  const cases: [string, unknown[]][] = [
    [".metadata.name", ["a"]],
    ["{.metadata.name}", ["a"]],
    ['.status.conditions[?(@.type=="Ready")].status', ["True"]],
    [".status.conditions[?(@.type=='Synced')].status", ["False"]],
    [".metadata.labels['app.kubernetes.io/name']", ["web"]],
    [".spec.list", [["x", "y", "z"]]],
    [".spec.list[0]", ["x"]],
    [".spec.list[-1]", ["z"]],
    [".spec.list[-2]", ["y"]],
    [".spec.items[*].name", ["one", "two"]],
    [".spec.missing", []],
    [".spec.missing.deeper", []],
    ["metadata.name", []],
  ];
  for (const [path, expected] of cases) {
    test(path, () => assert.deepEqual(kubeJsonPathResults(path, OBJECT), expected));
  }

  test("conversion to jsonpath-plus", () => {
    assert.equal(toJsonPathPlus(".a.b"), "$.a.b");
    assert.equal(toJsonPathPlus("{.a[-1]}"), "$.a[-1:]");
    assert.equal(toJsonPathPlus("['a']"), "$['a']");
    assert.equal(toJsonPathPlus("a"), undefined);
  });
});
