import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import { pruneUnknownFields } from "./pruning.js";

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        replicas: { type: "integer" },
        containers: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
        labels: {
          type: "object",
          additionalProperties: { type: "object", properties: { value: { type: "string" } } },
        },
        raw: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          properties: { typed: { type: "object", properties: { known: { type: "string" } } } },
        },
        template: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          properties: { spec: { type: "object", properties: { image: { type: "string" } } } },
        },
        anything: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true,
        },
        optional: { type: "string", nullable: true },
        defaulted: { type: "string", default: "x" },
        plain: { type: "string" },
      },
    },
  },
};

interface Case {
  name: string;
  object: JsonObject;
  pruned: JsonObject;
  dropped: string[];
}

const cases: Case[] = [
  {
    name: "unknown fields go; apiVersion, kind and known metadata stay",
    object: {
      apiVersion: "x.io/v1",
      kind: "W",
      metadata: { name: "a", bogus: 1 },
      spec: { replicas: 1, bogusField: true },
      extra: {},
    },
    pruned: { apiVersion: "x.io/v1", kind: "W", metadata: { name: "a" }, spec: { replicas: 1 } },
    dropped: ["extra", "metadata.bogus", "spec.bogusField"],
  },
  {
    name: "list items and additionalProperties values are pruned by their schema",
    object: { spec: { containers: [{ name: "a", x: 1 }, { y: 2 }], labels: { k: { value: "v", z: 3 } } } },
    pruned: { spec: { containers: [{ name: "a" }, {}], labels: { k: { value: "v" } } } },
    dropped: ["spec.containers[0].x", "spec.containers[1].y", "spec.labels.k.z"],
  },
  {
    name: "preserve-unknown-fields keeps a subtree, but pruning resumes under declared properties",
    object: { spec: { raw: { free: { deep: [1, { a: 2 }] }, typed: { known: "k", unknown: "u" } } } },
    pruned: { spec: { raw: { free: { deep: [1, { a: 2 }] }, typed: { known: "k" } } } },
    dropped: ["spec.raw.typed.unknown"],
  },
  {
    name: "embedded resources keep apiVersion, kind and ObjectMeta fields",
    object: {
      spec: {
        template: {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "p", labels: { a: "b" }, creationTimestamp: null, invented: true },
          spec: { image: "i", other: 1 },
          status: {},
        },
        anything: {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { ownerReferences: [{ name: "o", junk: 1 }] },
          data: { k: "v" },
        },
      },
    },
    pruned: {
      spec: {
        template: {
          apiVersion: "v1",
          kind: "Pod",
          metadata: { name: "p", labels: { a: "b" } },
          spec: { image: "i" },
        },
        anything: {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { ownerReferences: [{ name: "o" }] },
          data: { k: "v" },
        },
      },
    },
    dropped: [
      "spec.anything.metadata.ownerReferences[0].junk",
      "spec.template.metadata.invented",
      "spec.template.spec.other",
      "spec.template.status",
    ],
  },
  {
    name: "nulls go where not nullable and not defaulted (without being reported)",
    object: { spec: { optional: null, defaulted: null, plain: null, raw: { free: null } } },
    pruned: { spec: { optional: null, defaulted: null, raw: { free: null } } },
    dropped: [],
  },
];

describe("pruneUnknownFields", () => {
  for (const { name, object, pruned, dropped } of cases) {
    test(name, () => {
      assert.deepEqual(pruneUnknownFields(object, SCHEMA, { isResourceRoot: true }), dropped);
      assert.deepEqual(object, pruned);
    });
  }

  test("without isResourceRoot, top-level apiVersion/kind/metadata go silently", () => {
    const object: JsonObject = { apiVersion: "v1", kind: "K", metadata: {}, spec: { bogus: 1 } };
    assert.deepEqual(pruneUnknownFields(object, SCHEMA, { isResourceRoot: false }), ["spec.bogus"]);
    assert.deepEqual(object, { spec: {} });
  });

  test("a root that preserves unknown fields keeps everything", () => {
    const object: JsonObject = { apiVersion: "v1", kind: "K", anything: { goes: [1] } };
    assert.deepEqual(
      pruneUnknownFields(
        object,
        { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        { isResourceRoot: true },
      ),
      [],
    );
    assert.deepEqual(object, { apiVersion: "v1", kind: "K", anything: { goes: [1] } });
  });

  test("additionalProperties without a schema keeps keys but empties nested objects, like upstream", () => {
    const schema: JsonObject = {
      type: "object",
      properties: { m: { type: "object", additionalProperties: true } },
    };
    const object: JsonObject = { m: { scalar: 1, nested: { a: 1 } } };
    assert.deepEqual(pruneUnknownFields(object, schema, { isResourceRoot: false }), ["m.nested.a"]);
    assert.deepEqual(object, { m: { scalar: 1, nested: {} } });
  });
});
