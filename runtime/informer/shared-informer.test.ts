import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { KubeClient } from "../client/kube-client.js";
import type { Frozen } from "../objects/kube-object.js";
import { objectKey } from "../objects/object-key.js";
import { kubeConfigThroughProxy, TcpProxy } from "../testing/tcp-proxy.js";
import { installWidgetCrd, type Widget, widgetKind } from "../testing/test-kinds.js";
import { byLabel } from "./indexed-store.js";
import { SharedInformer } from "./shared-informer.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const quickBackoff = { initialMs: 20, maxMs: 200 };

/** What handlers saw, applied in order: must end equal to the cache and to the server. */
function mirror(informer: SharedInformer<Widget>): Map<string, string> {
  const seen = new Map<string, string>();
  const record = (object: Frozen<Widget>) =>
    seen.set(objectKey(object), object.metadata?.resourceVersion ?? "");
  informer.addEventHandler({
    onAdd: record,
    onUpdate: (_previous, current) => record(current),
    onDelete: (object) => seen.delete(objectKey(object)),
  });
  return seen;
}

function versions(objects: readonly Frozen<Widget>[] | readonly Widget[]): Map<string, string> {
  return new Map(objects.map((object) => [objectKey(object), object.metadata?.resourceVersion ?? ""]));
}

describe("SharedInformer against the dev API server", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer({ inMemory: false });
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "informer-test" });
    await installWidgetCrd(client);
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  const serverState = async () =>
    versions((await client.resource(widgetKind).list({ namespace: "default" })).items);

  test("lists, then follows changes; objects are frozen; indexes and selectors find them", async () => {
    const widgets = client.resource(widgetKind);
    await widgets.create({
      metadata: { name: "i1", namespace: "default", labels: { team: "a" } },
      spec: { size: 1 },
    });
    const informer = new SharedInformer({
      client: widgets,
      log,
      backoff: quickBackoff,
      indexers: { team: byLabel("team") },
    });
    const seen = mirror(informer);
    informer.start();
    try {
      assert.equal(await informer.waitForSync(), true);
      assert.equal(informer.hasSynced(), true);
      const cached = informer.get("default/i1");
      assert.equal(cached?.spec?.size, 1);
      assert.throws(() => {
        (cached as Widget).spec = { size: 5 };
      }, TypeError);
      assert.throws(() => {
        ((cached as Widget).metadata?.labels as Record<string, string>).team = "b";
      }, TypeError);

      await widgets.create({
        metadata: { name: "i2", namespace: "default", labels: { team: "b" } },
        spec: { size: 2 },
      });
      await widgets.mergePatch({ namespace: "default", name: "i1" }, { spec: { size: 10 } });
      await eventually("the informer to see the change", () =>
        informer.get("default/i1")?.spec?.size === 10 ? true : undefined,
      );
      await eventually("the informer to see i2", () => informer.get({ namespace: "default", name: "i2" }));
      assert.deepEqual(
        informer.byIndex("team", "b").map((w) => w.metadata?.name),
        ["i2"],
      );
      assert.deepEqual(
        informer
          .list({ namespace: "default", labelSelector: { matchLabels: { team: "a" } } })
          .map((w) => w.metadata?.name),
        ["i1"],
      );
      assert.equal(informer.list({ namespace: "elsewhere" }).length, 0);

      await widgets.delete({ namespace: "default", name: "i2" });
      await eventually("the deletion", () => (informer.get("default/i2") ? undefined : true));
      assert.deepEqual(informer.byIndex("team", "b"), []);
      assert.deepEqual(seen, await serverState());
    } finally {
      await informer.stop();
    }
  });

  test("survives a server restart and a forced 410, and ends with exactly the server's state", async () => {
    const widgets = client.resource(widgetKind);
    for (let i = 0; i < 10; i++) {
      await widgets.create({ metadata: { name: `r${i}`, namespace: "default" }, spec: { size: i } });
    }
    const proxy = await TcpProxy.start(cluster.server.port);
    const proxied = KubeClient.fromKubeConfig(kubeConfigThroughProxy(cluster.kubeConfig(), proxy), {
      fieldManager: "informer-test",
    });
    let lists = 0;
    let failures = 0;
    const informer = new SharedInformer({
      client: proxied.resource(widgetKind),
      log,
      backoff: quickBackoff,
      pageSize: 4,
      metrics: { listed: () => lists++, watchStarted() {}, failed: () => failures++, objects() {} },
    });
    const seen = mirror(informer);
    informer.start();
    try {
      await informer.waitForSync();
      assert.equal(lists, 1);

      // 1. A plain restart: the watch resumes from its resourceVersion, no relist needed.
      await cluster.stop();
      await cluster.restart();
      await widgets.mergePatch({ namespace: "default", name: "r0" }, { spec: { size: 100 } });
      await eventually("the change after a restart", () =>
        informer.get("default/r0")?.spec?.size === 100 ? true : undefined,
      );
      assert.equal(lists, 1, "resumed from the last resourceVersion");

      // 2. Cut off, restart with a tiny history, and change a lot: the old version is gone (410).
      proxy.block();
      await cluster.stop();
      await cluster.restart({ historySize: 2 });
      for (let i = 0; i < 10; i++) {
        if (i % 3 === 0) await widgets.delete({ namespace: "default", name: `r${i}` });
        else await widgets.mergePatch({ namespace: "default", name: `r${i}` }, { spec: { size: i * 2 } });
      }
      for (let i = 0; i < 5; i++)
        await widgets.create({ metadata: { name: `n${i}`, namespace: "default" }, spec: { size: i } });
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.ok(failures > 0, "reconnect attempts failed while cut off, and were reported");
      proxy.unblock();

      const expected = await serverState();
      await eventually("the cache to equal the server", () => {
        const cached = versions(informer.list());
        return JSON.stringify([...cached].sort()) === JSON.stringify([...expected].sort()) ? true : undefined;
      });
      assert.ok(lists >= 2, "the expired watch led to a relist");
      assert.deepEqual(
        seen,
        expected,
        "handlers were told about every change, including deletions missed while away",
      );

      // 3. And it keeps watching.
      await widgets.create({ metadata: { name: "after", namespace: "default" }, spec: { size: 1 } });
      await eventually("a change after recovery", () => informer.get("default/after"));
      assert.deepEqual(versions(informer.list()), await serverState());
    } finally {
      await informer.stop();
      proxied.close();
      await proxy.close();
    }
  });

  test("a handler that throws does not stop the informer or other handlers", async () => {
    const widgets = client.resource(widgetKind);
    const informer = new SharedInformer({ client: widgets, log, backoff: quickBackoff });
    const names: string[] = [];
    informer.addEventHandler({
      onAdd: () => {
        throw new Error("handler bug");
      },
    });
    informer.addEventHandler({ onAdd: (object) => names.push(object.metadata?.name ?? "") });
    informer.start();
    try {
      await informer.waitForSync();
      await widgets.create({ metadata: { name: "h1", namespace: "default" }, spec: { size: 1 } });
      await eventually("the second handler to see h1", () => (names.includes("h1") ? true : undefined));
    } finally {
      await informer.stop();
    }
  });

  test("periodic resync replays every cached object to handlers", async () => {
    const informer = new SharedInformer({
      client: client.resource(widgetKind),
      log,
      backoff: quickBackoff,
      resyncMs: 50,
    });
    let resyncs = 0;
    informer.addEventHandler({
      onUpdate: (previous, current) => {
        if (previous === current) resyncs++;
      },
    });
    informer.start();
    try {
      await informer.waitForSync();
      await eventually("two resync rounds", () => (resyncs >= 2 * informer.size ? true : undefined), 5_000);
    } finally {
      await informer.stop();
    }
  });
});
