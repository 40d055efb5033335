import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject, JsonValue } from "../json.js";
import {
  CREATION_TIMESTAMP_DESCRIPTION,
  cellOf,
  NAME_DESCRIPTION,
  printerColumnsConvertor,
} from "./printer-columns.js";

const NOW = new Date("2024-03-01T12:00:00Z");

describe("printerColumnsConvertor", () => {
  test("Name comes first; descriptions, formats and priorities are carried", () => {
    const convertor = printerColumnsConvertor([
      { name: "Phase", type: "string", jsonPath: ".status.phase", description: "The phase", priority: 1 },
      { name: "Size", type: "integer", format: "int32", jsonPath: ".spec.size" },
    ]);
    assert.deepEqual(convertor.columns, [
      { name: "Name", type: "string", format: "name", description: NAME_DESCRIPTION, priority: 0 },
      { name: "Phase", type: "string", format: "", description: "The phase", priority: 1 },
      {
        name: "Size",
        type: "integer",
        format: "int32",
        description: "Custom resource definition column (in JSONPath format): .spec.size",
        priority: 0,
      },
    ]);
  });

  test("no printer columns means Name and Age", () => {
    const convertor = printerColumnsConvertor([]);
    assert.deepEqual(convertor.columns[1], {
      name: "Age",
      type: "date",
      format: "",
      description: CREATION_TIMESTAMP_DESCRIPTION,
      priority: 0,
    });
    assert.deepEqual(
      convertor.cells({ metadata: { name: "w", creationTimestamp: "2024-03-01T10:00:00Z" } }, NOW),
      ["w", "120m"],
    );
  });

  test("cells: filters, first match only, types that do not match give null", () => {
    const convertor = printerColumnsConvertor([
      { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: "First", type: "string", jsonPath: ".spec.items[*].name" },
      { name: "List", type: "string", jsonPath: ".spec.tags" },
      { name: "Count", type: "integer", jsonPath: ".spec.count" },
      { name: "Wrong", type: "integer", jsonPath: ".spec.tags" },
      { name: "Missing", type: "string", jsonPath: ".spec.nothing" },
      { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
    ]);
    const object: JsonObject = {
      metadata: { name: "w", creationTimestamp: "2024-02-20T12:00:00Z" },
      spec: { items: [{ name: "a" }, { name: "b" }], tags: ["x", "<y>"], count: 2.9 },
      status: {
        conditions: [
          { type: "Synced", status: "False" },
          { type: "Ready", status: "True" },
        ],
      },
    };
    assert.deepEqual(convertor.cells(object, NOW), [
      "w",
      "True",
      "a",
      '["x","\\u003cy\\u003e"]',
      2,
      null,
      null,
      "10d",
    ]);
  });

  test("a definition that cannot be a column is left out", () => {
    const convertor = printerColumnsConvertor([
      { name: "Bad", type: "text", jsonPath: ".a" },
      { name: "NoPath", type: "string" },
    ]);
    assert.deepEqual(
      convertor.columns.map((column) => column.name),
      ["Name"],
    );
  });
});

describe("cellOf", () => {
  const cases: [Parameters<typeof cellOf>[0], JsonValue | undefined, JsonValue][] = [
    ["string", "text", "text"],
    ["string", 3, "3"],
    ["string", 1.5, "1.5"],
    ["string", true, "true"],
    ["string", { b: 1, a: [2] }, '{"a":[2],"b":1}'],
    ["string", null, null],
    ["integer", 3, 3],
    ["integer", -2.5, -2],
    ["integer", "3", null],
    ["number", 2, 2],
    ["number", "2", null],
    ["boolean", false, false],
    ["boolean", "false", null],
    ["date", "2024-03-01T11:00:00Z", "60m"],
    ["date", "soon", "<invalid>"],
    ["date", 5, null],
    ["string", undefined, null],
  ];
  for (const [type, value, expected] of cases) {
    test(`${type} ${JSON.stringify(value)}`, () => assert.deepEqual(cellOf(type, value, NOW), expected));
  }
});
