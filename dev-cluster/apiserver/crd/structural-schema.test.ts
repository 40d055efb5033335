import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import { checkStructuralSchema } from "./structural-schema.js";

const ROOT = "spec.versions[0].schema.openAPIV3Schema";

function root(properties: JsonObject, extra: JsonObject = {}): JsonObject {
  return { type: "object", properties, ...extra };
}

/** Each case lists the `field: message` lines it expects, in order. */
const cases: { name: string; schema: JsonObject; expected: string[] }[] = [
  {
    name: "a typical structural schema passes",
    schema: root({
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object" },
      spec: {
        type: "object",
        required: ["replicas"],
        properties: {
          replicas: { type: "integer", minimum: 0, default: 1 },
          port: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
          ports: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            items: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
          },
          labels: { type: "object", additionalProperties: { type: "string" } },
          raw: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          template: {
            type: "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
          },
        },
        oneOf: [{ required: ["replicas"] }],
      },
      status: { type: "object", properties: { ready: { type: "boolean" } } },
    }),
    expected: [],
  },
  {
    name: "every node needs a type",
    schema: { properties: { spec: { properties: { list: { type: "array", items: {} } } } } },
    expected: [
      `${ROOT}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`,
      `${ROOT}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${ROOT}.type: Required value: must not be empty at the root`,
    ],
  },
  {
    name: "arrays need items, the root must be an object",
    schema: { type: "array" },
    expected: [
      `${ROOT}.items: Required value: must be specified`,
      `${ROOT}.type: Invalid value: "array": must be object at the root`,
    ],
  },
  {
    name: "preserve-unknown-fields and int-or-string stand in for a type",
    schema: root({
      any: { "x-kubernetes-preserve-unknown-fields": true },
      port: { "x-kubernetes-int-or-string": true },
    }),
    expected: [],
  },
  {
    name: "int-or-string excludes the other extensions",
    schema: root({
      port: {
        "x-kubernetes-int-or-string": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "x-kubernetes-embedded-resource": true,
      },
    }),
    expected: [
      `${ROOT}.properties[port].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
      `${ROOT}.properties[port].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      `${ROOT}.properties[port].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ],
  },
  {
    name: "junctors may not carry types, defaults, descriptions, additionalProperties or nullable",
    schema: root({
      spec: {
        type: "object",
        allOf: [
          {
            type: "object",
            default: {},
            description: "x",
            nullable: true,
            additionalProperties: { type: "string" },
            "x-kubernetes-list-type": "atomic",
          },
        ],
      },
    }),
    expected: [
      `${ROOT}.properties[spec].allOf[0].additionalProperties: Forbidden: must be undefined to be structural`,
      `${ROOT}.properties[spec].allOf[0].default: Forbidden: must be undefined to be structural`,
      `${ROOT}.properties[spec].allOf[0].description: Forbidden: must be empty to be structural`,
      `${ROOT}.properties[spec].allOf[0].nullable: Forbidden: must be false to be structural`,
      `${ROOT}.properties[spec].allOf[0].type: Forbidden: must be empty to be structural`,
      `${ROOT}.properties[spec].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
      `${ROOT}.properties[spec].allOf[0].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
    ],
  },
  {
    name: "types in anyOf are only allowed as the int-or-string pattern",
    schema: root({
      ok: {
        "x-kubernetes-int-or-string": true,
        allOf: [{ anyOf: [{ type: "integer" }, { type: "string" }] }, { pattern: "^x" }],
      },
      bad: { type: "string", anyOf: [{ type: "string" }, { type: "integer" }] },
    }),
    expected: [
      `${ROOT}.properties[bad].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${ROOT}.properties[bad].anyOf[1].type: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: "fields constrained in a root junctor must be declared outside it",
    schema: root(
      { spec: { type: "object" } },
      { anyOf: [{ properties: { spec: { properties: { x: {} } } } }, { properties: { other: {} } }] },
    ),
    expected: [
      `${ROOT}.properties[other]: Required value: because it is defined in ${ROOT}.anyOf[1].properties[other]`,
      `${ROOT}.properties[spec].properties[x]: Required value: because it is defined in ${ROOT}.anyOf[0].properties[spec].properties[x]`,
    ],
  },
  {
    name: "metadata may only constrain name and generateName",
    schema: root({
      metadata: {
        type: "object",
        properties: { name: { type: "string", maxLength: 20 }, labels: { type: "object" } },
      },
    }),
    expected: [
      `${ROOT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  },
  {
    name: "metadata with only name constraints is fine; apiVersion and kind must be strings",
    schema: root({
      metadata: {
        type: "object",
        properties: { name: { type: "string", pattern: "^a" }, generateName: { type: "string" } },
      },
      kind: { type: "integer" },
    }),
    expected: [`${ROOT}.properties[kind].type: Invalid value: "integer": must be string`],
  },
  {
    name: "embedded resources need an object type and properties or preserve-unknown-fields",
    schema: root({
      a: { "x-kubernetes-embedded-resource": true },
      b: { type: "object", "x-kubernetes-embedded-resource": true, additionalProperties: { type: "string" } },
      c: {
        type: "object",
        "x-kubernetes-embedded-resource": true,
        properties: { metadata: { type: "string" } },
      },
    }),
    expected: [
      `${ROOT}.properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${ROOT}.properties[a].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
      `${ROOT}.properties[b].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set`,
      `${ROOT}.properties[b].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${ROOT}.properties[c].properties[metadata].type: Invalid value: "string": must be object`,
    ],
  },
  {
    name: "forbidden OpenAPI keywords",
    schema: root(
      {
        a: { type: "string", $ref: "#/x" },
        b: { type: "object", patternProperties: { "^x": { type: "string" } } },
        c: { type: "array", items: [{ type: "string" }] },
        d: { type: "null" },
      },
      { definitions: { x: { type: "string" } }, dependencies: { a: ["b"] } },
    ),
    expected: [
      `${ROOT}.definitions: Forbidden: definitions is not supported`,
      `${ROOT}.dependencies: Forbidden: dependencies is not supported`,
      `${ROOT}.properties[a].$ref: Forbidden: $ref is not supported`,
      `${ROOT}.properties[b].patternProperties: Forbidden: patternProperties is not supported`,
      `${ROOT}.properties[c].items: Forbidden: items must be a schema object and not an array`,
      `${ROOT}.properties[d].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${ROOT}.properties[d].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ],
  },
  {
    name: "properties and additionalProperties are mutually exclusive; uniqueItems is forbidden",
    schema: root({
      m: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      l: { type: "array", uniqueItems: true, items: { type: "string" } },
      free: { type: "object", additionalProperties: false },
    }),
    expected: [
      `${ROOT}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${ROOT}.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ],
  },
  {
    name: "additionalProperties is not allowed at the root",
    schema: { type: "object", additionalProperties: { type: "string" } },
    expected: [`${ROOT}.additionalProperties: Forbidden: must not be used at the root`],
  },
  {
    name: "list-map keys must be required or defaulted scalar item properties",
    schema: root({
      l: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name", "sub", "missing"],
        items: {
          type: "object",
          properties: { name: { type: "string", nullable: true }, sub: { type: "object" } },
        },
      },
      s: { type: "array", "x-kubernetes-list-type": "set", items: { type: "object", nullable: true } },
      k: { type: "string", "x-kubernetes-list-map-keys": ["a"] },
    }),
    expected: [
      `${ROOT}.properties[l].items.properties[sub].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
      `${ROOT}.properties[l].x-kubernetes-list-map-keys: Invalid value: []string{"name", "sub", "missing"}: entries must all be names of item properties`,
      `${ROOT}.properties[l].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${ROOT}.properties[l].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
      `${ROOT}.properties[l].items.properties[sub].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${ROOT}.properties[s].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
      `${ROOT}.properties[s].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`,
      `${ROOT}.properties[k].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
    ],
  },
  {
    name: "defaults are checked even when the schema has OpenAPI errors, like upstream",
    schema: root({
      metadata: { type: "object", default: { name: "x" } },
      spec: {
        type: "object",
        properties: {
          replicas: { type: "integer", default: "one" },
          nested: { type: "object", properties: { a: { type: "string" } }, default: { a: "x", b: "y" } },
        },
      },
    }),
    expected: [
      `${ROOT}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
      `${ROOT}.properties[spec].properties[nested].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields`,
      `${ROOT}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    ],
  },
  {
    name: "invalid and unpruned defaults",
    schema: root({
      spec: {
        type: "object",
        properties: {
          replicas: { type: "integer", default: "one" },
          nested: { type: "object", properties: { a: { type: "string" } }, default: { a: "x", b: "y" } },
        },
      },
    }),
    expected: [
      `${ROOT}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
      `${ROOT}.properties[spec].properties[nested].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields`,
    ],
  },
  {
    name: "x-kubernetes-preserve-unknown-fields: false and bad patterns",
    schema: root({
      a: { type: "object", "x-kubernetes-preserve-unknown-fields": false },
      b: { type: "string", pattern: "([" },
    }),
    expected: [
      `${ROOT}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ],
  },
  {
    name: "a schema that is not an object",
    schema: "nope" as unknown as JsonObject,
    expected: [`${ROOT}: Invalid value: "": must be an object`],
  },
];

describe("checkStructuralSchema", () => {
  for (const { name, schema, expected } of cases) {
    test(name, () => {
      const lines = checkStructuralSchema(schema, ROOT).map(
        (cause) => `${cause.field ?? ""}: ${cause.message}`,
      );
      assert.deepEqual(lines, expected);
    });
  }

  test("an invalid pattern is reported once the schema is otherwise convertible", () => {
    const causes = checkStructuralSchema(root({ b: { type: "string", pattern: "([" } }), ROOT);
    assert.equal(causes.length, 1);
    assert.equal(causes[0]?.field, `${ROOT}.properties[b].pattern`);
    assert.match(
      causes[0]?.message ?? "",
      /^Invalid value: "\(\[": must be a valid regular expression, but isn't: /,
    );
  });

  test("every cause carries a kube reason", () => {
    const reasons = new Set(
      checkStructuralSchema({ properties: { a: { allOf: [{ type: "string" }] } } }, ROOT).map(
        (c) => c.reason,
      ),
    );
    assert.deepEqual([...reasons].sort(), ["FieldValueForbidden", "FieldValueRequired"]);
  });
});
