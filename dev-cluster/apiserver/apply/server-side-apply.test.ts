import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { decodeManagedFields, recordUpdate, setManagedFields } from "./managed-fields.js";
import { type ServerSideApplyOptions, serverSideApply } from "./server-side-apply.js";

const semantics: FieldSemanticsLookup = (path) => {
  switch (path.join(".")) {
    case "spec.template.spec.containers":
      return { list: { type: "map", keys: ["name"] } };
    case "spec.tags":
      return { list: { type: "set" } };
    default:
      return undefined;
  }
};

const T0 = new Date("2024-05-01T10:00:00Z");
const T1 = new Date("2024-05-01T11:00:00Z");

function opts(manager: string, extra: Partial<ServerSideApplyOptions> = {}): ServerSideApplyOptions {
  return { manager, force: false, apiVersion: "apps/v1", now: T1, semantics, ...extra };
}

function deployment(spec: JsonObject, metadata: JsonObject = {}): JsonObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "default", ...metadata },
    spec,
  };
}

function containers(...items: JsonObject[]): JsonObject {
  return { template: { spec: { containers: items } } };
}

function at(object: JsonValue | undefined, ...path: (string | number)[]): JsonValue | undefined {
  let current = object;
  for (const step of path) {
    if (typeof step === "number") current = Array.isArray(current) ? current[step] : undefined;
    else current = isJsonObject(current) ? current[step] : undefined;
  }
  return current;
}

function ownerOf(object: JsonObject, manager: string): JsonObject | undefined {
  return decodeManagedFields(object).find((entry) => entry.manager === manager)?.fieldsV1;
}

function conflictOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail("expected a conflict");
}

describe("serverSideApply", () => {
  test("create by apply: the applied object plus one Apply entry", () => {
    const applied = deployment({ replicas: 2 }, { labels: { app: "web" } });
    const created = serverSideApply(undefined, applied, opts("kubectl", { now: T0 }));
    assert.deepEqual(created, {
      ...applied,
      metadata: {
        ...(applied.metadata as JsonObject),
        managedFields: [
          {
            manager: "kubectl",
            operation: "Apply",
            apiVersion: "apps/v1",
            time: "2024-05-01T10:00:00Z",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": { "f:replicas": {} } },
          },
        ],
      },
    });
  });

  test("re-applying the same configuration changes nothing, not even the time", () => {
    const applied = deployment({ replicas: 2, ...containers({ name: "c", image: "nginx" }) });
    const created = serverSideApply(undefined, applied, opts("kubectl", { now: T0 }));
    assert.deepEqual(serverSideApply(created, applied, opts("kubectl")), created);
  });

  test("a different value for another applier's field is a 409 naming manager and field", () => {
    const created = serverSideApply(undefined, deployment({ replicas: 2 }), opts("alice", { now: T0 }));
    const error = conflictOf(() => serverSideApply(created, deployment({ replicas: 3 }), opts("bob")));
    assert.equal(error.code, 409);
    assert.equal(error.reason, "Conflict");
    assert.equal(error.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    assert.deepEqual(error.details?.causes, [
      { reason: "FieldManagerConflict", message: 'conflict with "alice"', field: ".spec.replicas" },
    ]);
  });

  test("conflicts with updaters name their version; several conflicts are listed per manager", () => {
    const object = deployment({ replicas: 2, paused: false });
    const stored = setManagedFields(
      object,
      recordUpdate(undefined, object, { manager: "mgr", apiVersion: "v1", now: T0, semantics }),
    );
    const error = conflictOf(() =>
      serverSideApply(stored, deployment({ replicas: 3, paused: true }), opts("bob")),
    );
    assert.equal(
      error.message,
      'Apply failed with 2 conflicts: conflicts with "mgr" using v1:\n- .spec.paused\n- .spec.replicas',
    );
    assert.deepEqual(
      error.details?.causes?.map((cause) => [cause.message, cause.field]),
      [
        ['conflict with "mgr" using v1', ".spec.paused"],
        ['conflict with "mgr" using v1', ".spec.replicas"],
      ],
    );
  });

  test("applying the same value shares ownership instead of conflicting", () => {
    const created = serverSideApply(undefined, deployment({ replicas: 2 }), opts("alice", { now: T0 }));
    const shared = serverSideApply(created, deployment({ replicas: 2 }), opts("bob"));
    assert.deepEqual(ownerOf(shared, "alice"), { "f:spec": { "f:replicas": {} } });
    assert.deepEqual(ownerOf(shared, "bob"), { "f:spec": { "f:replicas": {} } });
  });

  test("force takes the field over: the value changes and the other manager loses it", () => {
    const created = serverSideApply(
      undefined,
      deployment({ replicas: 2, paused: false }),
      opts("alice", { now: T0 }),
    );
    const forced = serverSideApply(created, deployment({ replicas: 5 }), opts("bob", { force: true }));
    assert.equal(at(forced, "spec", "replicas"), 5);
    assert.deepEqual(ownerOf(forced, "alice"), { "f:spec": { "f:paused": {} } });
    assert.deepEqual(ownerOf(forced, "bob"), { "f:spec": { "f:replicas": {} } });
  });

  test("a field the applier stops applying is removed, unless someone else still owns it", () => {
    const created = serverSideApply(
      undefined,
      deployment({ replicas: 2, paused: true }),
      opts("alice", { now: T0 }),
    );
    const dropped = serverSideApply(created, deployment({ replicas: 2 }), opts("alice"));
    assert.equal(at(dropped, "spec", "paused"), undefined);
    assert.deepEqual(ownerOf(dropped, "alice"), { "f:spec": { "f:replicas": {} } });

    const shared = serverSideApply(created, deployment({ paused: true }), opts("bob"));
    const kept = serverSideApply(shared, deployment({ replicas: 2 }), opts("alice"));
    assert.equal(at(kept, "spec", "paused"), true);
    assert.deepEqual(ownerOf(kept, "bob"), { "f:spec": { "f:paused": {} } });
  });

  test("map-lists merge by key and keep the items of other managers", () => {
    const created = serverSideApply(
      undefined,
      deployment(containers({ name: "app", image: "nginx:1" })),
      opts("alice", { now: T0 }),
    );
    const sidecar = serverSideApply(
      created,
      deployment(containers({ name: "proxy", image: "envoy" })),
      opts("bob"),
    );
    assert.deepEqual(at(sidecar, "spec", "template", "spec", "containers"), [
      { name: "app", image: "nginx:1" },
      { name: "proxy", image: "envoy" },
    ]);
    const upgraded = serverSideApply(
      sidecar,
      deployment(containers({ name: "app", image: "nginx:2" })),
      opts("alice"),
    );
    assert.deepEqual(at(upgraded, "spec", "template", "spec", "containers"), [
      { name: "app", image: "nginx:2" },
      { name: "proxy", image: "envoy" },
    ]);
    const withdrawn = serverSideApply(upgraded, deployment({}), opts("bob"));
    assert.deepEqual(at(withdrawn, "spec", "template", "spec", "containers"), [
      { name: "app", image: "nginx:2" },
    ]);
    assert.equal(ownerOf(withdrawn, "bob"), undefined);
  });

  test("an item stays while another manager owns a field inside it", () => {
    const created = serverSideApply(
      undefined,
      deployment(containers({ name: "app", image: "nginx" })),
      opts("alice", { now: T0 }),
    );
    const withEnv = serverSideApply(
      created,
      deployment(containers({ name: "app", env: [{ name: "A", value: "1" }] })),
      opts("bob"),
    );
    const aliceLeaves = serverSideApply(withEnv, deployment({}), opts("alice"));
    assert.deepEqual(at(aliceLeaves, "spec", "template", "spec", "containers"), [
      { name: "app", env: [{ name: "A", value: "1" }] },
    ]);
  });

  test("set-lists take the union, and each applier removes only its own values", () => {
    const created = serverSideApply(undefined, deployment({ tags: ["a"] }), opts("alice", { now: T0 }));
    const both = serverSideApply(created, deployment({ tags: ["b"] }), opts("bob"));
    assert.deepEqual(at(both, "spec", "tags"), ["a", "b"]);
    const withoutA = serverSideApply(both, deployment({ tags: [] }), opts("alice"));
    assert.deepEqual(at(withoutA, "spec", "tags"), ["b"]);
  });

  test("atomic lists are replaced whole and owned whole", () => {
    const created = serverSideApply(
      undefined,
      deployment({ args: ["-a", "-b"] }),
      opts("alice", { now: T0 }),
    );
    const replaced = serverSideApply(created, deployment({ args: ["-c"] }), opts("alice"));
    assert.deepEqual(at(replaced, "spec", "args"), ["-c"]);
    assert.deepEqual(ownerOf(replaced, "alice"), { "f:spec": { "f:args": {} } });
  });

  test("objects without managedFields belong to before-first-apply", () => {
    const error = conflictOf(() =>
      serverSideApply(deployment({ replicas: 1 }), deployment({ replicas: 2 }), opts("alice")),
    );
    assert.equal(
      error.message,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    );
  });

  test("neither the live object nor the applied configuration is modified", () => {
    const created = serverSideApply(
      undefined,
      deployment(containers({ name: "a" })),
      opts("alice", { now: T0 }),
    );
    const applied = deployment(containers({ name: "b", image: "x" }));
    const [createdBefore, appliedBefore] = [structuredClone(created), structuredClone(applied)];
    const result = serverSideApply(created, applied, opts("bob"));
    assert.deepEqual([created, applied], [createdBefore, appliedBefore]);
    assert.notDeepEqual(result, created);
  });

  test("an applied configuration carrying managedFields is a 400", () => {
    const applied = deployment({}, { managedFields: [] });
    assert.throws(
      () => serverSideApply(undefined, applied, opts("alice")),
      (error: unknown) => error instanceof ApiError && error.code === 400,
    );
  });
});

describe("after client-side apply", () => {
  const lastApplied = (spec: JsonObject): string => JSON.stringify(deployment(spec));

  function clientSideApplied(spec: JsonObject): JsonObject {
    const object = deployment(spec, {
      annotations: { "kubectl.kubernetes.io/last-applied-configuration": lastApplied(spec) },
    });
    const entries = recordUpdate(undefined, object, {
      manager: "kubectl-client-side-apply",
      apiVersion: "apps/v1",
      now: T0,
      semantics,
    });
    return setManagedFields(object, entries);
  }

  test("kubectl --server-side takes over fields the annotation still describes, and syncs the annotation", () => {
    const live = clientSideApplied({ replicas: 2 });
    const applied = deployment({ replicas: 3 });
    const result = serverSideApply(live, applied, opts("kubectl"));
    assert.equal(at(result, "spec", "replicas"), 3);
    assert.deepEqual(ownerOf(result, "kubectl"), { "f:spec": { "f:replicas": {} } });
    assert.deepEqual(ownerOf(result, "kubectl-client-side-apply"), {
      "f:metadata": { "f:annotations": { "f:kubectl.kubernetes.io/last-applied-configuration": {} } },
    });
    const annotation = at(
      result,
      "metadata",
      "annotations",
      "kubectl.kubernetes.io/last-applied-configuration",
    );
    assert.equal(typeof annotation, "string");
    assert.deepEqual(JSON.parse(annotation as string), applied);
  });

  test("other managers still conflict with client-side apply", () => {
    const live = clientSideApplied({ replicas: 2 });
    const error = conflictOf(() => serverSideApply(live, deployment({ replicas: 3 }), opts("helm")));
    assert.equal(
      error.message,
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
  });

  test("a field changed since the last client-side apply (kubectl scale) still conflicts for kubectl", () => {
    const live = clientSideApplied({ replicas: 2 });
    const scaled: JsonObject = { ...live, spec: { replicas: 4 } };
    const afterScale = setManagedFields(
      scaled,
      recordUpdate(live, scaled, { manager: "kubectl-scale", apiVersion: "apps/v1", now: T0, semantics }),
    );
    const error = conflictOf(() => serverSideApply(afterScale, deployment({ replicas: 3 }), opts("kubectl")));
    assert.deepEqual(
      error.details?.causes?.map((cause) => cause.message),
      ['conflict with "kubectl-scale" using apps/v1'],
    );
  });
});
