import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StatusCause } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import { validateValue } from "./schema-validation.js";

function spec(properties: JsonObject, extra: JsonObject = {}): JsonObject {
  return { type: "object", properties: { spec: { type: "object", properties, ...extra } } };
}

interface Case {
  name: string;
  schema: JsonObject;
  value: JsonValue;
  expected: StatusCause[];
}

const cases: Case[] = [
  {
    name: "string where an integer belongs",
    schema: spec({ replicas: { type: "integer" } }),
    value: { spec: { replicas: "string" } },
    expected: [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.replicas",
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      },
    ],
  },
  {
    name: "a fraction is not an integer, but a number accepts an integer",
    schema: spec({ count: { type: "integer" }, ratio: { type: "number" } }),
    value: { spec: { count: 1.5, ratio: 2 } },
    expected: [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.count",
        message: 'Invalid value: "number": spec.count in body must be of type integer: "number"',
      },
    ],
  },
  {
    name: "null needs nullable",
    schema: spec({ a: { type: "string" }, b: { type: "string", nullable: true } }),
    value: { spec: { a: null, b: null } },
    expected: [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.a",
        message: 'Invalid value: "null": spec.a in body must be of type string: "null"',
      },
    ],
  },
  {
    name: "required fields",
    schema: spec({ image: { type: "string" } }, { required: ["image"] }),
    value: { spec: {} },
    expected: [{ reason: "FieldValueRequired", field: "spec.image", message: "Required value" }],
  },
  {
    name: "required at the root",
    schema: { type: "object", required: ["spec"], properties: { spec: { type: "object" } } },
    value: {},
    expected: [{ reason: "FieldValueRequired", field: "spec", message: "Required value" }],
  },
  {
    name: "enum",
    schema: spec({ mode: { type: "string", enum: ["a", "b"] }, level: { type: "integer", enum: [1, 2] } }),
    value: { spec: { mode: "x", level: 3 } },
    expected: [
      {
        reason: "FieldValueNotSupported",
        field: "spec.mode",
        message: 'Unsupported value: "x": supported values: "a", "b"',
      },
      {
        reason: "FieldValueNotSupported",
        field: "spec.level",
        message: 'Unsupported value: 3: supported values: "1", "2"',
      },
    ],
  },
  {
    name: "pattern, minLength and maxLength",
    schema: spec({
      name: { type: "string", pattern: "^[a-z]+$", minLength: 3 },
      tag: { type: "string", maxLength: 2 },
    }),
    value: { spec: { name: "A1", tag: "abc" } },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: "spec.name",
        message: 'Invalid value: "A1": spec.name in body should be at least 3 chars long',
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.name",
        message: "Invalid value: \"A1\": spec.name in body should match '^[a-z]+$'",
      },
      { reason: "FieldValueTooLong", field: "spec.tag", message: "Too long: may not be more than 2 bytes" },
    ],
  },
  {
    name: "maxLength counts characters, not bytes",
    schema: spec({ tag: { type: "string", maxLength: 2 } }),
    value: { spec: { tag: "éé" } },
    expected: [],
  },
  {
    name: "minimum, maximum and their exclusive forms",
    schema: spec({
      a: { type: "integer", minimum: 1 },
      b: { type: "integer", maximum: 10 },
      c: { type: "number", minimum: 0, exclusiveMinimum: true },
      d: { type: "number", maximum: 1.5, exclusiveMaximum: true },
    }),
    value: { spec: { a: 0, b: 11, c: 0, d: 1.5 } },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: "spec.a",
        message: "Invalid value: 0: spec.a in body should be greater than or equal to 1",
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.b",
        message: "Invalid value: 11: spec.b in body should be less than or equal to 10",
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.c",
        message: "Invalid value: 0: spec.c in body should be greater than 0",
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.d",
        message: "Invalid value: 1.5: spec.d in body should be less than 1.5",
      },
    ],
  },
  {
    name: "multipleOf",
    schema: spec({ a: { type: "number", multipleOf: 0.5 }, b: { type: "integer", multipleOf: 3 } }),
    value: { spec: { a: 1.5, b: 7 } },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: "spec.b",
        message: "Invalid value: 7: spec.b in body should be a multiple of 3",
      },
    ],
  },
  {
    name: "minItems, maxItems and item paths",
    schema: spec({
      few: { type: "array", minItems: 2, items: { type: "string" } },
      many: { type: "array", maxItems: 1, items: { type: "integer" } },
    }),
    value: { spec: { few: [1], many: [1, 2, 3] } },
    expected: [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.few[0]",
        message: 'Invalid value: "integer": spec.few[0] in body must be of type string: "integer"',
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.few",
        message: "Invalid value: 1: spec.few in body should have at least 2 items",
      },
      { reason: "FieldValueTooMany", field: "spec.many", message: "Too many: 3: must have at most 1 items" },
    ],
  },
  {
    name: "uniqueItems",
    schema: spec({ tags: { type: "array", uniqueItems: true, items: { type: "object" } } }),
    value: {
      spec: {
        tags: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      },
    },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: "spec.tags",
        message: 'Invalid value: "": spec.tags in body shouldn\'t contain duplicates',
      },
    ],
  },
  {
    name: "minProperties and maxProperties",
    schema: spec({
      small: { type: "object", minProperties: 2, additionalProperties: { type: "string" } },
      big: { type: "object", maxProperties: 1, additionalProperties: { type: "string" } },
    }),
    value: { spec: { small: { a: "x" }, big: { a: "x", b: "y" } } },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: "spec.small",
        message: "Invalid value: 1: spec.small in body should have at least 2 properties",
      },
      { reason: "FieldValueTooMany", field: "spec.big", message: "Too many: 2: must have at most 1 items" },
    ],
  },
  {
    name: "additionalProperties schemas check every value",
    schema: spec({ labels: { type: "object", additionalProperties: { type: "string" } } }),
    value: { spec: { labels: { ok: "x", bad: 1 } } },
    expected: [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.labels.bad",
        message: 'Invalid value: "integer": spec.labels.bad in body must be of type string: "integer"',
      },
    ],
  },
  {
    name: "formats that kube checks",
    schema: spec({
      at: { type: "string", format: "date-time" },
      day: { type: "string", format: "date" },
      data: { type: "string", format: "byte" },
      id: { type: "string", format: "uuid" },
      ip: { type: "string", format: "ipv4" },
    }),
    value: { spec: { at: "yesterday", day: "2024-02-30", data: "not base64!", id: "123", ip: "1.2.3.4" } },
    expected: [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.at",
        message: 'Invalid value: "yesterday": spec.at in body must be of type date-time: "yesterday"',
      },
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.day",
        message: 'Invalid value: "2024-02-30": spec.day in body must be of type date: "2024-02-30"',
      },
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.data",
        message: 'Invalid value: "not base64!": spec.data in body must be of type byte: "not base64!"',
      },
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.id",
        message: 'Invalid value: "123": spec.id in body must be of type uuid: "123"',
      },
    ],
  },
  {
    name: "valid formats and formats kube strips (int32, unknown) pass",
    schema: spec({
      at: { type: "string", format: "date-time" },
      small: { type: "integer", format: "int32" },
      custom: { type: "string", format: "my-own-format" },
    }),
    value: { spec: { at: "2024-01-02T03:04:05.123Z", small: 2 ** 40, custom: "anything" } },
    expected: [],
  },
  {
    name: "int-or-string accepts both and nothing else",
    schema: spec({ port: { "x-kubernetes-int-or-string": true } }),
    value: { spec: { port: true } },
    expected: [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.port",
        message: 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      },
    ],
  },
  {
    name: "int-or-string with the anyOf pattern",
    schema: spec({
      port: {
        "x-kubernetes-int-or-string": true,
        anyOf: [{ type: "integer" }, { type: "string" }],
        pattern: "^\\d+%?$",
      },
    }),
    value: { spec: { port: "80%" } },
    expected: [],
  },
  {
    name: "anyOf failing every branch",
    schema: spec({ v: { type: "object", anyOf: [{ required: ["a"] }, { required: ["b"] }] } }),
    value: { spec: { v: {} } },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: undefined,
        message: 'Invalid value: "": "spec.v" must validate at least one schema (anyOf)',
      },
      { reason: "FieldValueRequired", field: "spec.v.a", message: "Required value" },
    ],
  },
  {
    name: "oneOf matching twice, allOf and not",
    schema: spec({
      one: { type: "integer", oneOf: [{ minimum: 0 }, { maximum: 10 }] },
      all: { type: "integer", allOf: [{ minimum: 5 }] },
      not: { type: "string", not: { enum: ["forbidden"] } },
    }),
    value: { spec: { one: 5, all: 1, not: "forbidden" } },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: undefined,
        message:
          'Invalid value: "": "spec.one" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.all",
        message: "Invalid value: 1: spec.all in body should be greater than or equal to 5",
      },
      {
        reason: "FieldValueInvalid",
        field: undefined,
        message: 'Invalid value: "": "spec.all" must validate all the schemas (allOf). None validated',
      },
      {
        reason: "FieldValueInvalid",
        field: undefined,
        message: 'Invalid value: "": "spec.not" must not validate the schema (not)',
      },
    ],
  },
  {
    name: "list-type and embedded-resource invariants are part of it",
    schema: spec({
      tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
      template: {
        type: "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
      },
    }),
    value: { spec: { tags: ["a", "a"], template: { kind: "Pod" } } },
    expected: [
      { reason: "FieldValueRequired", field: "spec.template.apiVersion", message: "Required value" },
      { reason: "FieldValueDuplicate", field: "spec.tags[1]", message: 'Duplicate value: "a"' },
    ],
  },
];

describe("validateValue", () => {
  for (const { name, schema, value, expected } of cases) {
    test(name, () => {
      const normalized = expected.map((cause) =>
        cause.field === undefined ? { reason: cause.reason, message: cause.message } : cause,
      );
      assert.deepEqual(validateValue(value, schema, ""), normalized);
    });
  }

  test("a status validated alone names fields below the prefix and values relative to itself", () => {
    const schema = { type: "object", properties: { replicas: { type: "integer" } } };
    assert.deepEqual(validateValue({ replicas: "x" }, schema, "", { fieldPrefix: "status" }), [
      {
        reason: "FieldValueTypeInvalid",
        field: "status.replicas",
        message: 'Invalid value: "string": replicas in body must be of type integer: "string"',
      },
    ]);
  });

  test("unknown fields are not validation errors", () => {
    assert.deepEqual(validateValue({ apiVersion: "a/v1", kind: "K", spec: { bogus: 1 } }, spec({}), ""), []);
  });
});
