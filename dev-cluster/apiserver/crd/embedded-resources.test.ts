import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StatusCause } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import { validateEmbeddedResources } from "./embedded-resources.js";

function spec(properties: JsonObject): JsonObject {
  return { type: "object", properties: { spec: { type: "object", properties } } };
}

const cases: { name: string; schema: JsonObject; value: JsonValue; expected: StatusCause[] }[] = [
  {
    name: "embedded resources need apiVersion and kind",
    schema: spec({
      template: {
        type: "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
      },
    }),
    value: { spec: { template: { metadata: { name: "a/b" } } } },
    expected: [
      { reason: "FieldValueRequired", field: "spec.template.apiVersion", message: "Required value" },
      { reason: "FieldValueRequired", field: "spec.template.kind", message: "Required value" },
      {
        reason: "FieldValueInvalid",
        field: "spec.template.metadata.name",
        message: "Invalid value: \"a/b\": may not contain '/'",
      },
    ],
  },
  {
    name: "embedded resource apiVersion and kind shapes",
    schema: spec({
      items: {
        type: "array",
        items: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true,
        },
      },
    }),
    value: {
      spec: {
        items: [
          { apiVersion: "a/b/c", kind: "1Bad" },
          { apiVersion: "v1", kind: "Pod" },
        ],
      },
    },
    expected: [
      {
        reason: "FieldValueInvalid",
        field: "spec.items[0].apiVersion",
        message: 'Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      },
      {
        reason: "FieldValueInvalid",
        field: "spec.items[0].kind",
        message:
          "Invalid value: \"1Bad\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      },
    ],
  },
];

describe("validateEmbeddedResources", () => {
  for (const { name, schema, value, expected } of cases) {
    test(name, () => {
      assert.deepEqual(validateEmbeddedResources(value, schema, ""), expected);
    });
  }

  test("a namespace in embedded metadata must be a DNS label; metadata must be ObjectMeta", () => {
    const schema = spec({
      t: {
        type: "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
      },
    });
    const value = {
      spec: { t: { apiVersion: "v1", kind: "Pod", metadata: { namespace: "Bad_NS", labels: { a: 1 } } } },
    };
    assert.deepEqual(validateEmbeddedResources(value, schema, ""), [
      {
        reason: "FieldValueInvalid",
        field: "spec.t.metadata",
        message:
          'Invalid value: map[string]interface {}{"labels":map[string]interface {}{"a":1}, "namespace":"Bad_NS"}: json: cannot unmarshal object into Go struct field ObjectMeta.labels of type map[string]string',
      },
    ]);
  });
});
