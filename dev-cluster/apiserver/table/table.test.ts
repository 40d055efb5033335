import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import type { TableConvertor } from "../resource-type.js";
import { buildTable } from "./table.js";

const CONVERTOR: TableConvertor = {
  columns: [
    { name: "Name", type: "string", format: "name", description: "the name", priority: 0 },
    { name: "Size", type: "integer", format: "", description: "the size", priority: 1 },
  ],
  cells: (object) => [(object.metadata as JsonObject).name, (object.spec as JsonObject | undefined)?.size],
};

const OBJECTS: JsonObject[] = [
  { metadata: { name: "a", resourceVersion: "5" }, spec: { size: 1 } },
  { apiVersion: "x.io/v1", kind: "W", metadata: { name: "b" } },
];

const BASE = { resourceVersion: "10", apiVersion: "x.io/v1", kind: "W", now: new Date(0) };

describe("buildTable", () => {
  test("includeObject=Metadata carries PartialObjectMetadata", () => {
    assert.deepEqual(
      buildTable(CONVERTOR, OBJECTS, { ...BASE, includeObject: "Metadata", continue: "token" }),
      {
        kind: "Table",
        apiVersion: "meta.k8s.io/v1",
        metadata: { resourceVersion: "10", continue: "token" },
        columnDefinitions: [
          { name: "Name", type: "string", format: "name", description: "the name", priority: 0 },
          { name: "Size", type: "integer", format: "", description: "the size", priority: 1 },
        ],
        rows: [
          {
            cells: ["a", 1],
            object: {
              kind: "PartialObjectMetadata",
              apiVersion: "meta.k8s.io/v1",
              metadata: { name: "a", resourceVersion: "5" },
            },
          },
          {
            cells: ["b", null],
            object: { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { name: "b" } },
          },
        ],
      },
    );
  });

  test("includeObject=Object carries the object with its apiVersion and kind", () => {
    const table = buildTable(CONVERTOR, OBJECTS, { ...BASE, includeObject: "Object" });
    assert.deepEqual(
      (table.rows as JsonObject[]).map((row) => row.object),
      [
        {
          apiVersion: "x.io/v1",
          kind: "W",
          metadata: { name: "a", resourceVersion: "5" },
          spec: { size: 1 },
        },
        { apiVersion: "x.io/v1", kind: "W", metadata: { name: "b" } },
      ],
    );
    assert.equal(OBJECTS[0]?.apiVersion, undefined, "the input objects are not modified");
  });

  test("includeObject=None and noHeaders leave out objects and column definitions", () => {
    const table = buildTable(CONVERTOR, OBJECTS, {
      ...BASE,
      includeObject: "None",
      noHeaders: true,
      resourceVersion: "",
    });
    assert.deepEqual(table, {
      kind: "Table",
      apiVersion: "meta.k8s.io/v1",
      metadata: {},
      rows: [{ cells: ["a", 1] }, { cells: ["b", null] }],
    });
  });

  test("an empty list is an empty rows array", () => {
    const table = buildTable(CONVERTOR, [], { ...BASE, includeObject: "Metadata", remainingItemCount: 0 });
    assert.deepEqual(table.rows, []);
    assert.deepEqual(table.metadata, { resourceVersion: "10", remainingItemCount: 0 });
  });
});
