import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { register as globalRegistry } from "prom-client";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { httpsGet } from "../../test/harness/https-get.js";
import {
  issueLoopbackServingCertificate,
  writeServingSecret,
} from "../../test/harness/serving-certificate.js";
import { KubeClient } from "../client/kube-client.js";
import { TerminalError } from "../controller/reconcile-result.js";
import { eventKind } from "../events/event.js";
import { installWidgetCrd, widgetKind } from "../testing/test-kinds.js";
import { Manager } from "./manager.js";
import { stopOnSignals } from "./stop-on-signals.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

async function fetchText(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
}

describe("Manager against the dev API server", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "manager-test" });
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  test("serves /healthz and /readyz (caches synced) over HTTP, /metrics of its own registry over HTTPS; stops on SIGTERM", async () => {
    const serving = await issueLoopbackServingCertificate();
    await writeServingSecret(client, "default", "manager-test-certs", serving);
    const manager = new Manager({
      name: "manager-test",
      kubeConfig: cluster.kubeConfig(),
      log,
      health: { host: "127.0.0.1", port: 0 },
      metrics: { host: "127.0.0.1", port: 0, secret: { namespace: "default", name: "manager-test-certs" } },
      informerBackoff: { initialMs: 20, maxMs: 100 },
    });
    const widgets = manager.informer(widgetKind);
    const seen: string[] = [];
    const controller = manager.controller({
      name: "widgets",
      workers: 2,
      reconcile: async ({ key, log: reconcileLog }) => {
        reconcileLog.info("reconciling");
        seen.push(key);
        if (key === "default/bad") throw new TerminalError("BadSpec", "cannot handle this widget");
        if (key === "default/flaky" && seen.filter((k) => k === key).length < 2) throw new Error("try again");
        return {};
      },
    });
    controller.watch(widgets);
    const removeSignalHandlers = stopOnSignals(manager, log);
    await manager.start();
    try {
      const base = manager.healthUrl as string;
      assert.equal((await fetchText(`${base}/healthz`)).status, 200);
      // The Widget CRD does not exist yet: the informer cannot list, so the manager is not ready.
      const notReady = await fetchText(`${base}/readyz`);
      assert.equal(notReady.status, 503);
      assert.match(notReady.body, /caches not synced: widgets/);

      await installWidgetCrd(client);
      await eventually("ready once the cache synced", async () =>
        (await fetchText(`${base}/readyz`)).status === 200 ? true : undefined,
      );
      for (const name of ["good", "bad", "flaky"]) {
        await client
          .resource(widgetKind)
          .create({ metadata: { name, namespace: "default" }, spec: { size: 1 } });
      }
      await eventually("all reconciled", () =>
        seen.filter((k) => k === "default/flaky").length >= 2 && seen.includes("default/good")
          ? true
          : undefined,
      );

      const stored = await client.resource(widgetKind).get({ namespace: "default", name: "good" });
      assert.ok(stored.metadata?.managedFields, "the server records managedFields");
      const cached = widgets.get("default/good");
      assert.ok(cached);
      assert.equal(cached.metadata?.managedFields, undefined, "the manager's cache strips them");
      manager.events.normal(cached, "Checked", "the manager's recorder takes cached objects");

      const metricsUrl = await eventually("the metrics server listening", () => manager.metricsUrl);
      const metrics = (await httpsGet(`${metricsUrl}/metrics`, { ca: serving.caPem })).body;
      const sample = (line: string) =>
        Number(
          metrics
            .split("\n")
            .find((l) => l.startsWith(line))
            ?.split(" ")
            .pop(),
        );
      assert.ok(
        sample('controller_runtime_reconcile_total{controller="widgets",result="success"}') >= 2,
        metrics,
      );
      assert.equal(
        sample('controller_runtime_reconcile_total{controller="widgets",result="terminal_error"}'),
        1,
      );
      assert.equal(
        sample('controller_runtime_reconcile_total{controller="widgets",result="requeue_after"}'),
        0,
        "pre-initialised",
      );
      assert.ok(sample('workqueue_retries_total{name="widgets"}') >= 1);
      assert.ok(sample('workqueue_adds_total{name="widgets"}') >= 3);
      assert.ok(metrics.includes('workqueue_queue_duration_seconds_bucket{le="0.001",name="widgets"}'));
      assert.ok(
        metrics.includes(
          'controller_runtime_reconcile_time_seconds_count{controller="widgets",result="success"}',
        ),
      );
      assert.ok(
        sample('informer_errors_total{kind="widgets.v1.runtime.test.kubevirt.io"}') >= 1,
        "the failed lists were counted",
      );
      assert.equal(sample('informer_objects{kind="widgets.v1.runtime.test.kubevirt.io"}'), 3);
      assert.equal(sample('controller_runtime_max_concurrent_reconciles{controller="widgets"}'), 2);
      assert.equal(
        (await globalRegistry.metrics()).includes("controller_runtime"),
        false,
        "prom-client's global registry is untouched",
      );

      process.emit("SIGTERM", "SIGTERM");
      assert.deepEqual(await manager.done, { reason: "stopped" });
      await assert.rejects(fetch(`${base}/healthz`), "the health server is closed");
      await assert.rejects(
        httpsGet(`${metricsUrl}/metrics`, { ca: serving.caPem }),
        "the metrics server is closed",
      );
      const events = (await client.resource(eventKind).list({ namespace: "default" })).items;
      assert.ok(
        events.some((event) => event.reason === "Checked" && event.source?.component === "manager-test"),
        "events flushed on stop",
      );
    } finally {
      removeSignalHandlers();
      await manager.stop();
    }
  });

  test("a manager without leader election runs its controllers at once and stops cleanly before any sync", async () => {
    const manager = new Manager({ name: "quick", kubeConfig: cluster.kubeConfig(), log });
    manager.controller({ name: "noop", reconcile: async () => ({}) });
    await manager.start();
    assert.equal(manager.isLeader(), true);
    await manager.stop();
    assert.deepEqual(await manager.done, { reason: "stopped" });
    assert.throws(() => manager.controller({ name: "late", reconcile: async () => ({}) }), /already started/);
  });
});
