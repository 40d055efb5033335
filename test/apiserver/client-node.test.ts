import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
} from "@kubernetes/client-node";
import {
  eventually,
  skippedOnRealApiServer,
  startTestApiServer,
  type TestApiServer,
} from "../harness/api-server-fixture.js";
import { fixturePath } from "./testing/fixtures.js";

function statusOf(error: unknown): { code: number; reason: string } {
  assert.ok(error instanceof ApiException, `expected an ApiException, got ${String(error)}`);
  const body = JSON.parse(String(error.body)) as { reason: string };
  return { code: error.code, reason: body.reason };
}

describe("@kubernetes/client-node against the dev API server", () => {
  let cluster: TestApiServer;

  before(async () => {
    cluster = await startTestApiServer({ inMemory: false });
    assert.equal((await cluster.kubectl(["apply", "-f", fixturePath("widget-crd.yaml")])).code, 0);
    await cluster.kubectl([
      "wait",
      "--for=condition=established",
      "crd/widgets.example.kubevirt.io",
      "--timeout=30s",
    ]);
  });
  after(async () => cluster?.close());

  test("CoreV1Api: create without apiVersion/kind, patch with every type, delete with options in the query", async () => {
    const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: "default",
      body: { metadata: { name: "cn" }, data: { a: "1" } },
    });
    assert.equal(created.kind, "ConfigMap");
    assert.ok(created.metadata?.creationTimestamp instanceof Date);

    await core.patchNamespacedConfigMap({
      name: "cn",
      namespace: "default",
      body: [{ op: "replace", path: "/data/a", value: "2" }],
    });
    await core.patchNamespacedConfigMap(
      { name: "cn", namespace: "default", body: { data: { b: "3" } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    await core.patchNamespacedConfigMap(
      { name: "cn", namespace: "default", body: { data: { c: "4" } } },
      setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
    );
    const applied = await core.patchNamespacedConfigMap(
      {
        name: "cn",
        namespace: "default",
        fieldManager: "tester",
        force: true,
        body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cn" }, data: { d: "5" } },
      },
      setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply),
    );
    assert.deepEqual(applied.data, { a: "2", b: "3", c: "4", d: "5" });

    // An object body sent with the default JSON-patch type is a client mistake: a clean 4xx.
    await assert.rejects(
      core.patchNamespacedConfigMap({ name: "cn", namespace: "default", body: { data: { e: "6" } } }),
      (error: unknown) => statusOf(error).code >= 400 && statusOf(error).code < 500,
    );

    await core.deleteNamespacedConfigMap({
      name: "cn",
      namespace: "default",
      propagationPolicy: "Foreground",
    });
    // Foreground deletion is the garbage collector's to finish (the foregroundDeletion finalizer):
    // the object goes soon, not at once.
    await eventually("the ConfigMap to be gone", async () => {
      try {
        await core.readNamespacedConfigMap({ name: "cn", namespace: "default" });
        return undefined;
      } catch (error) {
        return statusOf(error).code === 404 ? true : undefined;
      }
    });
  });

  test("a replace that leaves managedFields out keeps them, and the writer gets its own Update entry", async () => {
    const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: "default",
      fieldManager: "creator",
      body: { metadata: { name: "mf" }, data: { a: "1" } },
    });
    const live = await core.readNamespacedConfigMap({ name: "mf", namespace: "default" });
    const replaced = await core.replaceNamespacedConfigMap({
      name: "mf",
      namespace: "default",
      fieldManager: "replacer",
      body: {
        metadata: { name: "mf", resourceVersion: live.metadata?.resourceVersion },
        data: { a: "1", b: "2" },
      },
    });
    const managers = (replaced.metadata?.managedFields ?? []).map((entry) => [
      entry.manager,
      entry.operation,
    ]);
    assert.deepEqual(managers, [
      ["creator", "Update"],
      ["replacer", "Update"],
    ]);
    await core.deleteNamespacedConfigMap({ name: "mf", namespace: "default" });
  });

  test("CustomObjectsApi: status writes ignore spec, stale replaces get 409", async () => {
    const custom = cluster.kubeConfig().makeApiClient(CustomObjectsApi);
    const target = { group: "example.kubevirt.io", version: "v1", namespace: "default", plural: "widgets" };
    const created = (await custom.createNamespacedCustomObject({
      ...target,
      body: {
        apiVersion: "example.kubevirt.io/v1",
        kind: "Widget",
        metadata: { name: "cw" },
        spec: { size: "small" },
      },
    })) as { metadata: { resourceVersion: string; generation: number }; spec: Record<string, unknown> };
    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...target,
      name: "cw",
      body: { ...created, spec: { size: "large" }, status: { replicas: 1 } },
    })) as { spec: { size: string }; status: { replicas: number }; metadata: { generation: number } };
    assert.equal(withStatus.spec.size, "small");
    assert.equal(withStatus.status.replicas, 1);
    assert.equal(withStatus.metadata.generation, 1);
    await assert.rejects(
      custom.replaceNamespacedCustomObject({
        ...target,
        name: "cw",
        body: { ...created, spec: { size: "medium" } },
      }),
      (error: unknown) => statusOf(error).code === 409 && statusOf(error).reason === "Conflict",
    );
    await assert.rejects(
      custom.createNamespacedCustomObject({
        ...target,
        body: {
          apiVersion: "example.kubevirt.io/v1",
          kind: "Widget",
          metadata: { name: "cw" },
          spec: { size: "small" },
        },
      }),
      (error: unknown) => statusOf(error).code === 409 && statusOf(error).reason === "AlreadyExists",
    );
    await assert.rejects(
      custom.createNamespacedCustomObject({
        ...target,
        body: {
          apiVersion: "example.kubevirt.io/v1",
          kind: "Widget",
          metadata: { name: "cx" },
          spec: { size: 3 },
        },
      }),
      (error: unknown) => statusOf(error).code === 422 && statusOf(error).reason === "Invalid",
    );
  });

  test("an informer resumes after a server restart and relists after 410, ending with exactly the server's state", async (t) => {
    if (skippedOnRealApiServer(t, "restarts the dev API server process (with a short watch history)")) return;
    const config = cluster.kubeConfig();
    const core = config.makeApiClient(CoreV1Api);
    const namespace = "informed";
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    for (let i = 0; i < 5; i++) {
      await core.createNamespacedConfigMap({
        namespace,
        body: { metadata: { name: `cm-${i}` }, data: { i: String(i) } },
      });
    }
    let allowRestart = true;
    let finished = false;
    const informer = makeInformer<V1ConfigMap & KubernetesObject>(
      config,
      `/api/v1/namespaces/${namespace}/configmaps`,
      () => core.listNamespacedConfigMap({ namespace }),
    );
    // client-node's informer stops for good on an error: the application restarts it (our runtime will do this with backoff).
    informer.on("error", () => {
      const retry = (): void => {
        if (finished) return;
        if (allowRestart) informer.start().catch(() => setTimeout(retry, 200));
        else setTimeout(retry, 100);
      };
      setTimeout(retry, 200);
    });
    await informer.start();
    const cacheState = () =>
      informer
        .list(namespace)
        .map((cm) => `${cm.metadata?.name}=${JSON.stringify(cm.data)}`)
        .sort()
        .join(",");
    const serverState = async () =>
      (await core.listNamespacedConfigMap({ namespace })).items
        .map((cm) => `${cm.metadata?.name}=${JSON.stringify(cm.data)}`)
        .sort()
        .join(",");
    await eventually("the informer to list", () =>
      informer.list(namespace).length === 5 ? true : undefined,
    );

    // Restart: the watch resumes from its last resourceVersion, which the persisted history still covers.
    await cluster.stop();
    await cluster.restart();
    await core.patchNamespacedConfigMap(
      { name: "cm-0", namespace, body: { data: { i: "changed" } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ name: "cm-1", namespace });
    await eventually("the informer to catch up after the restart", async () =>
      (await serverState()) === cacheState() ? true : undefined,
    );

    // Restart with a tiny history and make many changes before the informer reconnects: its resourceVersion is too old (410), so it relists.
    allowRestart = false;
    await cluster.stop();
    await cluster.restart({ historySize: 3 });
    for (let i = 5; i < 15; i++) {
      await core.createNamespacedConfigMap({
        namespace,
        body: { metadata: { name: `cm-${i}` }, data: { i: String(i) } },
      });
    }
    await core.deleteNamespacedConfigMap({ name: "cm-2", namespace });
    allowRestart = true;
    await eventually(
      "the informer to relist and match the server",
      async () => ((await serverState()) === cacheState() ? true : undefined),
      30_000,
    );
    assert.equal(cacheState(), await serverState());
    finished = true;
    await informer.stop();
  });
});
