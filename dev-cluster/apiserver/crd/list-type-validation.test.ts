import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StatusCause } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import { validateListTypes } from "./list-type-validation.js";

function spec(properties: JsonObject): JsonObject {
  return { type: "object", properties: { spec: { type: "object", properties } } };
}

const cases: { name: string; schema: JsonObject; value: JsonValue; expected: StatusCause[] }[] = [
  {
    name: "list-type set duplicates (second occurrence only)",
    schema: spec({ tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } } }),
    value: { spec: { tags: ["a", "b", "a", "a"] } },
    expected: [{ reason: "FieldValueDuplicate", field: "spec.tags[2]", message: 'Duplicate value: "a"' }],
  },
  {
    name: "list-type map duplicate keys",
    schema: spec({
      ports: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name", "protocol"],
        items: {
          type: "object",
          properties: { name: { type: "string" }, protocol: { type: "string" }, port: { type: "integer" } },
        },
      },
    }),
    value: {
      spec: {
        ports: [
          { name: "http", protocol: "TCP", port: 80 },
          { name: "http", protocol: "UDP" },
          { protocol: "TCP", name: "http" },
        ],
      },
    },
    expected: [
      {
        reason: "FieldValueDuplicate",
        field: "spec.ports[2]",
        message: 'Duplicate value: map[string]interface {}{"name":"http", "protocol":"TCP"}',
      },
    ],
  },
  {
    name: "list-type map items must be objects",
    schema: spec({
      l: { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items: {} },
    }),
    value: { spec: { l: [{ k: "a" }, "x"] } },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: "spec.l[1]",
        message: 'Invalid value: "x": must be an object for an array of list-type map',
      },
    ],
  },
];

describe("validateListTypes", () => {
  for (const { name, schema, value, expected } of cases) {
    test(name, () => {
      assert.deepEqual(validateListTypes(value, schema, ""), expected);
    });
  }

  test("map keys may be missing: items without them collide with each other", () => {
    const schema = spec({
      l: { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], items: {} },
    });
    assert.deepEqual(validateListTypes({ spec: { l: [{}, null, { k: "a" }] } }, schema, ""), [
      {
        reason: "FieldValueDuplicate",
        field: "spec.l[1]",
        message: "Duplicate value: map[string]interface {}{}",
      },
    ]);
  });

  test("lists under additionalProperties are found by key", () => {
    const schema = spec({
      m: {
        type: "object",
        additionalProperties: { type: "array", "x-kubernetes-list-type": "set", items: {} },
      },
    });
    assert.deepEqual(validateListTypes({ spec: { m: { key: [1, 1] } } }, schema, ""), [
      { reason: "FieldValueDuplicate", field: "spec.m[key][1]", message: "Duplicate value: 1" },
    ]);
  });
});
