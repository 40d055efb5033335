import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { configMapKind, installWidgetCrd, type Widget, widgetKind } from "../testing/test-kinds.js";
import {
  AlreadyExistsError,
  ConflictError,
  InvalidError,
  KubeApiError,
  NotFoundError,
} from "./api-errors.js";
import { KubeClient } from "./kube-client.js";

describe("KubeClient against the dev API server", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "runtime-test" });
    await installWidgetCrd(client);
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  test("create, get, list, update and updateStatus a custom resource", async () => {
    const widgets = client.resource(widgetKind);
    const created = await widgets.create({
      metadata: { name: "w1", namespace: "default", labels: { app: "a" } },
      spec: { size: 1 },
    });
    assert.equal(created.kind, "Widget");
    assert.equal(created.metadata?.generation, 1);
    const read = await widgets.get({ namespace: "default", name: "w1" });
    assert.equal(read.metadata?.uid, created.metadata?.uid);

    const updated = await widgets.update({ ...read, spec: { size: 2 } });
    assert.equal(updated.spec?.size, 2);
    assert.equal(updated.metadata?.generation, 2);
    const withStatus = await widgets.updateStatus({
      ...updated,
      spec: { size: 99 },
      status: { observedSize: 2 },
    });
    assert.equal(withStatus.status?.observedSize, 2);
    assert.equal(withStatus.spec?.size, 2, "the status subresource ignores spec");

    await widgets.create({
      metadata: { name: "w2", namespace: "default", labels: { app: "b" } },
      spec: { size: 1 },
    });
    const list = await widgets.list({ namespace: "default", labelSelector: "app=a" });
    assert.deepEqual(
      list.items.map((w) => w.metadata?.name),
      ["w1"],
    );
    assert.ok(list.resourceVersion !== "");
  });

  test("merge, JSON and server-side apply patches, on the object and on status", async () => {
    const widgets = client.resource(widgetKind);
    const ref = { namespace: "default", name: "p1" };
    await widgets.create({ metadata: { ...ref }, spec: { size: 1, color: "red" } });
    const merged = await widgets.mergePatch(ref, { spec: { color: null, size: 3 } });
    assert.deepEqual(merged.spec, { size: 3 });
    const patched = await widgets.jsonPatch(ref, [
      { op: "test", path: "/metadata/resourceVersion", value: merged.metadata?.resourceVersion },
      { op: "add", path: "/spec/color", value: "blue" },
    ]);
    assert.equal(patched.spec?.color, "blue");
    const status = await widgets.mergePatch(
      ref,
      { status: { phase: "Ready" }, spec: { size: 50 } },
      { subresource: "status" },
    );
    assert.equal(status.status?.phase, "Ready");
    assert.equal(status.spec?.size, 3);

    const applied = await widgets.apply(
      { metadata: { name: "a1", namespace: "default" }, spec: { size: 7 } },
      { fieldManager: "one" },
    );
    assert.equal(applied.spec?.size, 7, "apply creates a missing object");
    await assert.rejects(
      widgets.apply(
        { metadata: { name: "a1", namespace: "default" }, spec: { size: 8 } },
        { fieldManager: "two" },
      ),
      (error: unknown) => error instanceof ConflictError && error.causes.length > 0,
    );
    const forced = await widgets.apply(
      { metadata: { name: "a1", namespace: "default" }, spec: { size: 8 } },
      { fieldManager: "two", force: true },
    );
    assert.equal(forced.spec?.size, 8);
  });

  test("API errors are typed from the Status body", async () => {
    const widgets = client.resource(widgetKind);
    await assert.rejects(widgets.get({ namespace: "default", name: "missing" }), (error: unknown) => {
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.code, 404);
      assert.equal(error.reason, "NotFound");
      assert.equal(error.status?.details?.name, "missing");
      return true;
    });
    const created = await widgets.create({
      metadata: { name: "e1", namespace: "default" },
      spec: { size: 1 },
    });
    await assert.rejects(widgets.create(created), AlreadyExistsError);
    await widgets.mergePatch({ namespace: "default", name: "e1" }, { spec: { size: 2 } });
    await assert.rejects(widgets.update({ ...created, spec: { size: 3 } }), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.match(error.message, /has been modified/);
      return true;
    });
    await assert.rejects(
      widgets.create({
        metadata: { name: "e2", namespace: "default" },
        spec: { size: "big" },
      } as unknown as Widget),
      (error: unknown) => {
        assert.ok(error instanceof InvalidError);
        assert.ok(
          error.causes.some((cause) => cause.field === "spec.size"),
          JSON.stringify(error.causes),
        );
        return true;
      },
    );
    await assert.rejects(
      client.resource(configMapKind).create({ metadata: { name: "Bad_Name", namespace: "default" } }),
      (error: unknown) => error instanceof KubeApiError && error.code === 422,
    );
  });

  test("delete honours preconditions and reports objects kept by finalizers", async () => {
    const maps = client.resource(configMapKind);
    const ref = { namespace: "default", name: "d1" };
    const created = await maps.create({ metadata: { ...ref, finalizers: ["test.kubevirt.io/hold"] } });
    await assert.rejects(maps.delete(ref, { preconditions: { uid: "not-the-uid" } }), ConflictError);
    await assert.rejects(maps.delete(ref, { preconditions: { resourceVersion: "1" } }), ConflictError);
    const kept = await maps.delete(ref, {
      preconditions: { uid: created.metadata?.uid as string },
      propagationPolicy: "Foreground",
    });
    assert.ok(kept?.metadata?.deletionTimestamp, "a finalizer keeps the object, marked for deletion");
    await maps.mergePatch(ref, { metadata: { finalizers: null } });
    await assert.rejects(maps.get(ref), NotFoundError);
    await maps.create({ metadata: { name: "d2", namespace: "default" } });
    const last = await maps.delete({ namespace: "default", name: "d2" });
    assert.equal(
      last?.metadata?.deletionTimestamp,
      undefined,
      "without finalizers the object is gone at once",
    );
    await assert.rejects(maps.get({ namespace: "default", name: "d2" }), NotFoundError);
  });
});
