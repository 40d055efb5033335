import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject, JsonValue } from "../json.js";
import { applySchemaDefaults } from "./defaulting.js";

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      default: {},
      properties: {
        replicas: { type: "integer", default: 1 },
        mode: { type: "string", default: "auto" },
        nullable: { type: "string", nullable: true, default: "d" },
        settings: { type: "object", default: { a: [1] } },
        ports: {
          type: "array",
          items: {
            type: "object",
            default: {},
            properties: { protocol: { type: "string", default: "TCP" } },
          },
        },
        byName: {
          type: "object",
          additionalProperties: { type: "object", properties: { weight: { type: "integer", default: 5 } } },
        },
      },
    },
  },
};

const cases: { name: string; object: JsonValue; expected: JsonValue }[] = [
  {
    name: "a missing object is defaulted, then its own properties",
    object: {},
    expected: { spec: { replicas: 1, mode: "auto", nullable: "d", settings: { a: [1] } } },
  },
  {
    name: "set values stay; non-nullable nulls are defaulted, nullable ones stay null",
    object: { spec: { replicas: 3, mode: null, nullable: null } },
    expected: { spec: { replicas: 3, mode: "auto", nullable: null, settings: { a: [1] } } },
  },
  {
    name: "list items and map values get their defaults; null items take the items default",
    object: { spec: { ports: [{}, { protocol: "UDP" }, null], byName: { a: {}, b: { weight: 1 } } } },
    expected: {
      spec: {
        replicas: 1,
        mode: "auto",
        nullable: "d",
        settings: { a: [1] },
        ports: [{ protocol: "TCP" }, { protocol: "UDP" }, { protocol: "TCP" }],
        byName: { a: { weight: 5 }, b: { weight: 1 } },
      },
    },
  },
];

describe("applySchemaDefaults", () => {
  for (const { name, object, expected } of cases) {
    test(name, () => {
      applySchemaDefaults(object, SCHEMA);
      assert.deepEqual(object, expected);
    });
  }

  test("defaults are deep copies, never shared with the schema", () => {
    const first: JsonObject = {};
    const second: JsonObject = {};
    applySchemaDefaults(first, SCHEMA);
    applySchemaDefaults(second, SCHEMA);
    const settings = (first.spec as JsonObject).settings as JsonObject;
    (settings.a as JsonValue[]).push(2);
    assert.deepEqual(((second.spec as JsonObject).settings as JsonObject).a, [1]);
    const schemaDefault = (((SCHEMA.properties as JsonObject).spec as JsonObject).properties as JsonObject)
      .settings as JsonObject;
    assert.deepEqual(schemaDefault.default, { a: [1] });
  });

  test("a scalar or a value without a schema is left alone", () => {
    const value: JsonValue = "text";
    applySchemaDefaults(value, SCHEMA);
    assert.equal(value, "text");
    const object: JsonObject = { other: {} };
    applySchemaDefaults(object, { type: "object", "x-kubernetes-preserve-unknown-fields": true });
    assert.deepEqual(object, { other: {} });
  });
});
