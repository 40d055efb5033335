import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { collectionPath, defineKind, objectPath } from "./resource-kind.js";

describe("defineKind", () => {
  test("keeps only the names the runtime uses, frozen, from a richer description", () => {
    const definition = {
      group: "example.com",
      version: "v1",
      kind: "Widget",
      plural: "widgets",
      namespaced: true,
      shortNames: ["wd"],
      schema: { type: "object" },
    };
    const kind = defineKind(definition);
    assert.deepEqual(kind, {
      group: "example.com",
      version: "v1",
      kind: "Widget",
      plural: "widgets",
      namespaced: true,
    });
    assert.equal(Object.isFrozen(kind), true);
    assert.equal(
      objectPath(kind, { namespace: "ns", name: "w" }),
      "/apis/example.com/v1/namespaces/ns/widgets/w",
    );
  });

  test("core kinds live under /api", () => {
    const kind = defineKind({ group: "", version: "v1", kind: "Node", plural: "nodes", namespaced: false });
    assert.equal(collectionPath(kind, "ignored"), "/api/v1/nodes");
  });
});
