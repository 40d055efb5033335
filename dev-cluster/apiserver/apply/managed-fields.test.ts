import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { JsonObject } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type RecordUpdateOptions,
  recordUpdate,
  setManagedFields,
} from "./managed-fields.js";

const semantics: FieldSemanticsLookup = (path) =>
  path.join(".") === "spec.containers" ? { list: { type: "map", keys: ["name"] } } : undefined;

const T0 = new Date("2024-05-01T10:00:00.123Z");
const T1 = new Date("2024-05-01T11:00:00.000Z");

function options(manager: string, now: Date, extra: Partial<RecordUpdateOptions> = {}): RecordUpdateOptions {
  return { manager, apiVersion: "v1", now, semantics, ...extra };
}

const created: JsonObject = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "cm", namespace: "default", uid: "u1", resourceVersion: "1", labels: { app: "a" } },
  data: { one: "1", two: "2" },
};

function stored(object: JsonObject, entries: ManagedFieldsEntry[]): JsonObject {
  return setManagedFields(object, entries);
}

function fieldsOf(entries: ManagedFieldsEntry[], manager: string): JsonObject | undefined {
  return entries.find((entry) => entry.manager === manager)?.fieldsV1;
}

describe("recordUpdate", () => {
  test("on create the creator owns every user-set field, none of the server's metadata", () => {
    const entries = recordUpdate(undefined, created, options("kubectl-create", T0));
    assert.deepEqual(entries, [
      {
        manager: "kubectl-create",
        operation: "Update",
        apiVersion: "v1",
        time: "2024-05-01T10:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:metadata": { "f:labels": { "f:app": {} } }, "f:data": { "f:one": {}, "f:two": {} } },
      },
    ]);
  });

  test("a change moves the field to the writer; a manager left with nothing disappears", () => {
    const before = stored(created, recordUpdate(undefined, created, options("creator", T0)));
    const after: JsonObject = { ...before, data: { one: "uno", two: "2" } };
    const afterFirst = recordUpdate(before, after, options("editor", T1));
    assert.deepEqual(fieldsOf(afterFirst, "editor"), { "f:data": { "f:one": {} } });
    assert.deepEqual(fieldsOf(afterFirst, "creator"), {
      "f:metadata": { "f:labels": { "f:app": {} } },
      "f:data": { "f:two": {} },
    });

    const onlyCreator = stored(created, [
      {
        manager: "creator",
        operation: "Update",
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:data": { "f:one": {} } },
      },
    ]);
    const taken = recordUpdate(
      onlyCreator,
      { ...onlyCreator, data: { one: "x", two: "2" } },
      options("editor", T1),
    );
    assert.deepEqual(
      taken.map((entry) => entry.manager),
      ["editor"],
    );
  });

  test("removing a field takes it from its owner without giving it to the writer", () => {
    const before = stored(created, recordUpdate(undefined, created, options("creator", T0)));
    const entries = recordUpdate(before, { ...before, data: { one: "1" } }, options("editor", T1));
    assert.deepEqual(fieldsOf(entries, "creator"), {
      "f:metadata": { "f:labels": { "f:app": {} } },
      "f:data": { "f:one": {} },
    });
    assert.equal(fieldsOf(entries, "editor"), undefined);
  });

  test("a write that changes nothing leaves the entries, and their times, as they were", () => {
    const entries = recordUpdate(undefined, created, options("creator", T0));
    const before = stored(created, entries);
    const after: JsonObject = {
      ...before,
      metadata: { ...(before.metadata as JsonObject), resourceVersion: "2" },
    };
    assert.deepEqual(recordUpdate(before, after, options("creator", T1)), entries);
  });

  test("the writer's entry merges with its earlier one and gets the new time", () => {
    const before = stored(created, recordUpdate(undefined, created, options("creator", T0)));
    const entries = recordUpdate(
      before,
      { ...before, data: { one: "1", two: "2", three: "3" } },
      options("creator", T1),
    );
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.time, "2024-05-01T11:00:00Z");
    const data = entries[0]?.fieldsV1["f:data"] as JsonObject | undefined;
    assert.deepEqual(data?.["f:three"], {});
    assert.deepEqual(data?.["f:one"], {});
  });

  test("managedFields written by the client replace the stored ones (kubectl's client-side-apply migration)", () => {
    const before = stored(
      created,
      recordUpdate(undefined, created, options("kubectl-client-side-apply", T0)),
    );
    const migrated: ManagedFieldsEntry = {
      manager: "kubectl",
      operation: "Apply",
      apiVersion: "v1",
      time: "2024-05-01T10:00:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:data": { "f:one": {}, "f:two": {} } },
    };
    const entries = recordUpdate(before, stored(before, [migrated]), options("kubectl", T1));
    assert.deepEqual(entries, [migrated]);
  });

  test("managedFields [{}] resets ownership; [] keeps what was stored", () => {
    const before = stored(created, recordUpdate(undefined, created, options("creator", T0)));
    const reset = { ...before, metadata: { ...(before.metadata as JsonObject), managedFields: [{}] } };
    assert.deepEqual(recordUpdate(before, reset, options("editor", T1)), []);
    const changedAndReset = { ...reset, data: { one: "changed", two: "2" } };
    assert.deepEqual(
      recordUpdate(before, changedAndReset, options("editor", T1)).map((entry) => [
        entry.manager,
        entry.fieldsV1,
      ]),
      [["editor", { "f:data": { "f:one": {} } }]],
    );
    const emptied = { ...before, metadata: { ...(before.metadata as JsonObject), managedFields: [] } };
    assert.deepEqual(recordUpdate(before, emptied, options("editor", T1)), decodeManagedFields(before));
  });

  test("subresource writers are separate entries and ignore fields the endpoint resets", () => {
    const before = stored(created, recordUpdate(undefined, created, options("creator", T0)));
    const after: JsonObject = { ...before, data: { one: "x", two: "2" }, status: { phase: "Ready" } };
    const entries = recordUpdate(
      before,
      after,
      options("creator", T1, { subresource: "status", ignoredFields: [["data"]] }),
    );
    const statusEntry = entries.find((entry) => entry.subresource === "status");
    assert.deepEqual(statusEntry?.fieldsV1, { "f:status": { "f:phase": {} } });
    assert.deepEqual(
      fieldsOf(
        entries.filter((entry) => !entry.subresource),
        "creator",
      ),
      {
        "f:metadata": { "f:labels": { "f:app": {} } },
        "f:data": { "f:one": {}, "f:two": {} },
      },
    );
  });
});

describe("decode and encode", () => {
  test("encoding sorts Apply before Update, then by time", () => {
    const entry = (manager: string, operation: "Apply" | "Update", time: string): ManagedFieldsEntry => ({
      manager,
      operation,
      apiVersion: "v1",
      time,
      fieldsType: "FieldsV1",
      fieldsV1: {},
    });
    const encoded = encodeManagedFields([
      entry("late-update", "Update", "2024-01-02T00:00:00Z"),
      entry("early-update", "Update", "2024-01-01T00:00:00Z"),
      entry("applier", "Apply", "2024-01-03T00:00:00Z"),
    ]);
    assert.deepEqual(
      encoded.map((json) => json.manager),
      ["applier", "early-update", "late-update"],
    );
    assert.deepEqual(Object.keys(encoded[0] ?? {}), [
      "manager",
      "operation",
      "apiVersion",
      "time",
      "fieldsType",
      "fieldsV1",
    ]);
  });

  const malformed: [string, unknown][] = [
    ["a non-list", { a: 1 }],
    ["an unknown operation", [{ manager: "m", operation: "Patch", fieldsType: "FieldsV1", fieldsV1: {} }]],
    ["another fieldsType", [{ manager: "m", operation: "Update", fieldsType: "FieldsV2", fieldsV1: {} }]],
    ["bad fieldsV1", [{ manager: "m", operation: "Update", fieldsType: "FieldsV1", fieldsV1: { "z:": {} } }]],
  ];
  for (const [name, managedFields] of malformed) {
    test(`decoding ${name} is a 400`, () => {
      const object = { metadata: { managedFields } } as JsonObject;
      assert.throws(
        () => decodeManagedFields(object),
        (error: unknown) => error instanceof ApiError && error.code === 400 && error.cause instanceof Error,
      );
    });
  }

  test("an object without managedFields has no entries; setManagedFields with none removes the field", () => {
    assert.deepEqual(decodeManagedFields(created), []);
    const withNone = setManagedFields({ metadata: { name: "x", managedFields: [] } }, []);
    assert.deepEqual(withNone, { metadata: { name: "x" } });
  });
});
