import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { KubeClient } from "../client/kube-client.js";
import { configMapKind } from "../testing/test-kinds.js";
import { eventKind } from "./event.js";
import { EventRecorder } from "./event-recorder.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

describe("EventRecorder against the dev API server", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "events-test" });
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  test("repeats of one event are aggregated into its count and lastTimestamp; others get their own", async () => {
    const subject = await client
      .resource(configMapKind)
      .create({ metadata: { name: "subject", namespace: "default" } });
    const recorder = new EventRecorder({
      events: client.resource(eventKind),
      component: "events-test",
      host: "node-1",
      log,
    });
    for (let i = 0; i < 3; i++) recorder.warning(subject, "SyncFailed", "cannot reach libvirt");
    recorder.normal(subject, "Started", "the VM started");
    await recorder.flush();

    const events = (await client.resource(eventKind).list({ namespace: "default" })).items.filter(
      (event) => event.involvedObject.uid === subject.metadata?.uid,
    );
    assert.equal(events.length, 2);
    const failed = events.find((event) => event.reason === "SyncFailed");
    assert.equal(failed?.count, 3);
    assert.equal(failed?.type, "Warning");
    assert.equal(failed?.involvedObject.kind, "ConfigMap");
    assert.equal(failed?.involvedObject.name, "subject");
    assert.equal(failed?.source?.component, "events-test");
    assert.ok(
      failed?.lastTimestamp && failed.firstTimestamp && failed.lastTimestamp >= failed.firstTimestamp,
    );
    assert.equal(events.find((event) => event.reason === "Started")?.count, 1);

    const described = await cluster.kubectl(["describe", "configmap", "subject", "-n", "default"]);
    assert.match(described.stdout, /SyncFailed/);
  });

  test("an event whose aggregate was deleted starts again; write failures are logged, never thrown", async () => {
    const subject = await client
      .resource(configMapKind)
      .create({ metadata: { name: "subject2", namespace: "default" } });
    const recorder = new EventRecorder({ events: client.resource(eventKind), component: "events-test", log });
    recorder.normal(subject, "Ping", "once");
    await recorder.flush();
    const [first] = (await client.resource(eventKind).list({ namespace: "default" })).items.filter(
      (e) => e.reason === "Ping",
    );
    await client.resource(eventKind).delete({ namespace: "default", name: first?.metadata?.name as string });
    recorder.normal(subject, "Ping", "once");
    recorder.normal(
      { kind: "Thing", metadata: { name: "no such namespace", namespace: "missing-ns" } },
      "Bad",
      "rejected",
    );
    await recorder.flush();
    const again = (await client.resource(eventKind).list({ namespace: "default" })).items.filter(
      (e) => e.reason === "Ping",
    );
    assert.equal(again.length, 1);
    assert.equal(again[0]?.count, 1);
  });
});
