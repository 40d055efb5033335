import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { customResourceTypes } from "./custom-resource-type.js";

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: {
      type: "object",
      description: "The desired state.",
      properties: {
        replicas: { type: "integer", default: 1 },
        color: { type: "string" },
        enabled: { type: "boolean" },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: {
            type: "object",
            required: ["name"],
            properties: {
              name: { type: "string" },
              tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
            },
          },
        },
        selector: {
          type: "object",
          "x-kubernetes-map-type": "atomic",
          additionalProperties: { type: "string" },
        },
      },
    },
    status: { type: "object", properties: { replicas: { type: "integer" }, selector: { type: "string" } } },
  },
};

const CRD: JsonObject = {
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: {
      plural: "widgets",
      singular: "widget",
      kind: "Widget",
      listKind: "WidgetList",
      shortNames: ["wd"],
      categories: ["all"],
    },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: SCHEMA },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: ".spec.replicas",
            statusReplicasPath: ".status.replicas",
            labelSelectorPath: ".status.selector",
          },
        },
        additionalPrinterColumns: [
          { name: "Replicas", type: "integer", jsonPath: ".spec.replicas", priority: 1 },
        ],
        selectableFields: [{ jsonPath: ".spec.color" }, { jsonPath: ".spec.enabled" }],
      },
      {
        name: "v1beta1",
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
      },
      { name: "v1alpha1", served: false, storage: false, schema: { openAPIV3Schema: { type: "object" } } },
    ],
  },
};

function types(): [ResourceType, ResourceType] {
  const [v1, v1beta1, ...rest] = customResourceTypes(CRD);
  assert.ok(v1 && v1beta1);
  assert.equal(rest.length, 0, "unserved versions are not resources");
  return [v1, v1beta1];
}

describe("customResourceTypes", () => {
  test("names, scope and subresources come from the CRD", () => {
    const [v1, v1beta1] = types();
    assert.deepEqual(
      {
        group: v1.group,
        version: v1.version,
        kind: v1.kind,
        listKind: v1.listKind,
        plural: v1.plural,
        singular: v1.singular,
        namespaced: v1.namespaced,
        shortNames: v1.shortNames,
        categories: v1.categories,
        builtin: v1.builtin,
        statusSubresource: v1.statusSubresource,
        scaleSubresource: v1.scaleSubresource,
        otherSubresources: v1.otherSubresources,
      },
      {
        group: "example.com",
        version: "v1",
        kind: "Widget",
        listKind: "WidgetList",
        plural: "widgets",
        singular: "widget",
        namespaced: true,
        shortNames: ["wd"],
        categories: ["all"],
        builtin: false,
        statusSubresource: true,
        scaleSubresource: {
          specReplicasPath: ".spec.replicas",
          statusReplicasPath: ".status.replicas",
          labelSelectorPath: ".status.selector",
        },
        otherSubresources: [],
      },
    );
    assert.equal(v1beta1.version, "v1beta1");
    assert.equal(v1beta1.statusSubresource, false);
    assert.equal(v1beta1.scaleSubresource, undefined);
  });

  test("the OpenAPI schema keeps descriptions and is a copy", () => {
    const [v1] = types();
    assert.equal(
      ((v1.openApiSchema.properties as JsonObject).spec as JsonObject).description,
      "The desired state.",
    );
    assert.notEqual(v1.openApiSchema, SCHEMA);
  });

  test("defaults, prunes and validates with the version's schema", () => {
    const [v1, v1beta1] = types();
    const object: JsonObject = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { bogus: 1 },
    };
    assert.deepEqual(v1.prune(object), ["spec.bogus"]);
    v1.applyDefaults(object);
    assert.deepEqual(object.spec, { replicas: 1 });
    assert.deepEqual(v1.validate(object, undefined), []);
    const loose: JsonObject = {
      apiVersion: "example.com/v1beta1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { bogus: 1 },
    };
    assert.deepEqual(v1beta1.prune(loose), []);
  });

  test("validate checks the name, the schema and the scale paths", () => {
    const [v1] = types();
    const object: JsonObject = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "Bad_Name" },
      spec: { replicas: -1, ports: [{ name: "a" }, { name: "a" }] },
      status: { replicas: "many" },
    };
    assert.deepEqual(
      v1.validate(object, undefined).map((cause) => `${cause.field}: ${cause.message}`),
      [
        "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'status.replicas: Invalid value: "string": status.replicas in body must be of type integer: "string"',
        'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}',
        ".spec.replicas: Invalid value: -1: should be a non-negative integer",
        ".status.replicas: Invalid value: 0: .status.replicas accessor error: many is of the type string, expected int64",
      ],
    );
  });

  test("validateStatus checks only the status, against the status schema", () => {
    const [v1] = types();
    const object: JsonObject = {
      metadata: { name: "Bad_Name" },
      spec: { replicas: "x" },
      status: { replicas: "x", selector: 1 },
    };
    assert.deepEqual(
      v1.validateStatus(object, object).map((cause) => `${cause.field}: ${cause.message}`),
      [
        'status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"',
        'status.selector: Invalid value: "integer": selector in body must be of type string: "integer"',
        ".status.replicas: Invalid value: 0: .status.replicas accessor error: x is of the type string, expected int64",
        '.status.selector: Invalid value: "": .status.selector accessor error: 1 is of the type int64, expected string',
      ],
    );
  });

  test("selectable fields as field selectors see them", () => {
    const [v1, v1beta1] = types();
    assert.deepEqual(v1.selectableFields({ spec: { color: "red", enabled: false } }), {
      "spec.color": "red",
      "spec.enabled": "false",
    });
    assert.deepEqual(v1.selectableFields({ spec: {} }), { "spec.color": "", "spec.enabled": "" });
    assert.deepEqual(v1beta1.selectableFields({ spec: { color: "red" } }), {});
  });

  test("field semantics follow the list and map extensions", () => {
    const [v1] = types();
    const cases: [string[], unknown][] = [
      [["spec", "ports"], { list: { type: "map", keys: ["name"] } }],
      [["spec", "ports", "tags"], { list: { type: "set" } }],
      [["spec", "selector"], { map: "atomic" }],
      [["spec", "replicas"], undefined],
      [["spec", "nothing"], undefined],
    ];
    for (const [path, expected] of cases) assert.deepEqual(v1.fieldSemantics(path), expected, path.join("."));
  });

  test("the table shows Name and the printer columns, or Name and Age without them", () => {
    const [v1, v1beta1] = types();
    assert.deepEqual(
      v1.table.columns.map((column) => [column.name, column.type, column.priority]),
      [
        ["Name", "string", 0],
        ["Replicas", "integer", 1],
      ],
    );
    assert.deepEqual(v1.table.cells({ metadata: { name: "w" }, spec: { replicas: 2 } }, new Date()), [
      "w",
      2,
    ]);
    assert.deepEqual(
      v1beta1.table.columns.map((column) => column.name),
      ["Name", "Age"],
    );
    const now = new Date("2024-01-01T01:00:00Z");
    assert.deepEqual(
      v1beta1.table.cells({ metadata: { name: "w", creationTimestamp: "2024-01-01T00:00:00Z" } }, now),
      ["w", "60m"],
    );
  });
});
