import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { KubeClient } from "../client/kube-client.js";
import { Manager } from "../manager/manager.js";
import { kubeConfigThroughProxy, TcpProxy } from "../testing/tcp-proxy.js";
import { leaseKind } from "./lease.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const lease = {
  namespace: "default",
  name: "election-test",
  leaseDurationMs: 2_000,
  renewDeadlineMs: 1_000,
  retryPeriodMs: 100,
};

describe("leader election between two managers", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "election-test" });
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  /** A manager whose only controller counts its reconciles of one key, enqueued every 20 ms. */
  function candidate(identity: string, kubeConfig = cluster.kubeConfig()) {
    const manager = new Manager({
      name: "election-test",
      kubeConfig,
      log,
      leaderElection: { ...lease, identity },
    });
    let reconciles = 0;
    const controller = manager.controller({
      name: "counter",
      reconcile: async () => {
        reconciles++;
        return { requeueAfterMs: 20 };
      },
    });
    controller.enqueue("tick");
    return { manager, reconciles: () => reconciles };
  }

  test("leadership moves once the lease expires; the old leader stops its controllers; a graceful stop releases", async () => {
    const proxy = await TcpProxy.start(cluster.server.port);
    const first = candidate("first", kubeConfigThroughProxy(cluster.kubeConfig(), proxy));
    const second = candidate("second");
    try {
      await first.manager.start();
      await eventually("first to lead", () => (first.manager.isLeader() ? true : undefined));
      await second.manager.start();
      await eventually("first's controller to run", () => (first.reconciles() > 2 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(second.manager.isLeader(), false);
      assert.equal(second.reconciles(), 0, "a follower runs no leader-only controller");

      // Cut the leader off: it cannot renew, so it steps down; the follower waits for the lease to expire.
      const cutAt = Date.now();
      proxy.block();
      assert.deepEqual(await first.manager.done, { reason: "leadership-lost" });
      const stoppedAt = first.reconciles();
      await eventually("second to lead", () => (second.manager.isLeader() ? true : undefined), 5_000);
      const movedAfter = Date.now() - cutAt;
      assert.ok(movedAfter >= 1_000, `the follower waited for the lease to expire (${movedAfter} ms)`);
      await eventually("second's controller to run", () => (second.reconciles() > 2 ? true : undefined));
      assert.equal(first.reconciles(), stoppedAt, "the old leader's controllers stopped");
      const held = await client.resource(leaseKind).get({ namespace: "default", name: lease.name });
      assert.equal(held.spec?.holderIdentity, "second");
      assert.equal(held.spec?.leaseTransitions, 1);

      // A graceful stop releases the lease: a new candidate takes it without waiting for expiry.
      const third = candidate("third");
      await third.manager.start();
      const stopAt = Date.now();
      await second.manager.stop();
      await eventually("third to lead", () => (third.manager.isLeader() ? true : undefined), 5_000);
      // The lease lasts 2 s; taking over well before that shows the release was used.
      assert.ok(Date.now() - stopAt < 1_500, "no wait for the released lease to expire");
      await third.manager.stop();
    } finally {
      await first.manager.stop();
      await second.manager.stop();
      await proxy.close();
    }
  });
});
