import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { nodeKind } from "../kinds.js";
import { eventually, type HandlerCluster, startHandlerCluster } from "../testing/handler-cluster.js";
import { NodeHeartbeat } from "./node-heartbeat.js";
import { KVM_RESOURCE } from "./node-state.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

describe("NodeHeartbeat against the dev API server", () => {
  let cluster: HandlerCluster;
  before(async () => {
    cluster = await startHandlerCluster();
  });
  after(() => cluster.close());

  const node = () => cluster.client.resource(nodeKind).get({ name: cluster.nodeName });

  test("schedulable follows libvirt at once, KVM is advertised when it works, and stopping unschedules", async () => {
    let answers = true;
    const heartbeat = new NodeHeartbeat({
      nodeName: cluster.nodeName,
      nodes: cluster.client.resource(nodeKind),
      libvirtAnswers: () => answers,
      kvm: { usable: true, detail: "the test says so" },
      intervalMs: 60_000,
      log,
    });
    const stop = new AbortController();
    const running = heartbeat.run(stop.signal);
    const first = await eventually("the first heartbeat", async () => {
      const current = await node();
      return current.metadata?.labels?.["kubevirt.io/schedulable"] === "true" ? current : undefined;
    });
    assert.ok(first.metadata?.annotations?.["kubevirt.io/heartbeat"]);
    assert.equal(first.status?.capacity?.[KVM_RESOURCE], "1k");
    assert.equal(first.status?.allocatable?.[KVM_RESOURCE], "1k");

    answers = false; // libvirt's connection was lost: the handler triggers a beat
    heartbeat.trigger();
    await eventually("unschedulable", async () =>
      (await node()).metadata?.labels?.["kubevirt.io/schedulable"] === "false" ? true : undefined,
    );
    answers = true;
    heartbeat.trigger();
    await eventually("schedulable again", async () =>
      (await node()).metadata?.labels?.["kubevirt.io/schedulable"] === "true" ? true : undefined,
    );

    stop.abort();
    await running;
    assert.equal((await node()).metadata?.labels?.["kubevirt.io/schedulable"], "false");
  });
});
