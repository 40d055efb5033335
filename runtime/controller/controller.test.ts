import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { KubeClient } from "../client/kube-client.js";
import { SharedInformer } from "../informer/shared-informer.js";
import { ItemExponentialRateLimiter } from "../queue/rate-limiters.js";
import { installWidgetCrd, type Widget, widgetKind } from "../testing/test-kinds.js";
import { Controller } from "./controller.js";
import { type ReconcileOutcome, TerminalError } from "./reconcile-result.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Controller against the dev API server", () => {
  let cluster: TestApiServer;
  let client: KubeClient;

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "controller-test" });
    await installWidgetCrd(client);
  });
  after(async () => {
    client?.close();
    await cluster?.close();
  });

  test("a key is never reconciled by two workers at once, never queued twice, and ends at the latest state", async () => {
    const widgets = client.resource(widgetKind);
    const names = ["c0", "c1", "c2", "c3", "c4"];
    for (const name of names)
      await widgets.create({ metadata: { name, namespace: "default" }, spec: { size: 0 } });
    const informer = new SharedInformer<Widget>({ client: widgets, log });
    const inFlight = new Set<string>();
    const lastSeen = new Map<string, number | undefined>();
    let overlaps = 0;
    let maxParallel = 0;
    let reconciledBeforeSync = false;
    const controller = new Controller({
      name: "concurrency",
      log,
      workers: 4,
      reconcile: async ({ key }) => {
        if (!informer.hasSynced()) reconciledBeforeSync = true;
        if (inFlight.has(key)) overlaps++;
        inFlight.add(key);
        maxParallel = Math.max(maxParallel, inFlight.size);
        await pause(Math.random() * 4);
        lastSeen.set(key, informer.get(key)?.spec?.size);
        inFlight.delete(key);
        return {};
      },
    });
    controller.watch(informer);
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    informer.start();
    try {
      let maxDepth = 0;
      const burst = setInterval(() => {
        for (let i = 0; i < 50; i++) controller.enqueue(`default/${names[i % names.length]}`);
        maxDepth = Math.max(maxDepth, controller.queue.length);
      }, 2);
      await Promise.all(
        names.map(async (name) => {
          for (let size = 1; size <= 30; size++)
            await widgets.mergePatch({ namespace: "default", name }, { spec: { size } });
        }),
      );
      clearInterval(burst);
      await eventually("every key reconciled at its final state", () =>
        names.every((name) => lastSeen.get(`default/${name}`) === 30) ? true : undefined,
      );
      assert.equal(overlaps, 0, "no key was reconciled by two workers at once");
      assert.ok(maxParallel > 1, `different keys ran in parallel (max ${maxParallel})`);
      assert.ok(maxDepth <= names.length, `the queue never held a key twice (max depth ${maxDepth})`);
      assert.equal(reconciledBeforeSync, false, "workers started after the cache synced");
    } finally {
      stop.abort();
      await running;
      await informer.stop();
    }
  });

  test("a failing key backs off exponentially; success resets the backoff; terminal errors are not retried", async () => {
    const attempts = new Map<string, number[]>();
    const outcomes: ReconcileOutcome[] = [];
    let failuresLeft = 4;
    const controller = new Controller({
      name: "backoff",
      log,
      rateLimiter: new ItemExponentialRateLimiter(20, 10_000),
      metrics: { reconciled: (outcome) => outcomes.push(outcome), activeWorkers() {} },
      reconcile: async ({ key }) => {
        attempts.set(key, [...(attempts.get(key) ?? []), Date.now()]);
        if (key === "terminal") throw new TerminalError("BadSpec", "cannot act on this spec");
        if (key === "throws-non-error") throw "a string, not an Error";
        if (failuresLeft-- > 0) throw new Error("transient failure");
        return {};
      },
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    try {
      controller.enqueue("flaky");
      await eventually("the fifth attempt to succeed", () =>
        outcomes.includes("success") ? true : undefined,
      );
      const times = attempts.get("flaky") ?? [];
      const gaps = times.slice(1).map((time, i) => time - (times[i] as number));
      assert.equal(gaps.length, 4);
      // Each retry waits at least 20 ms × 2^n; a busy machine may add delay, never remove it
      // (2 ms of slack for timer rounding), so the lower bounds are what can be asserted.
      for (let i = 0; i < gaps.length; i++)
        assert.ok(gaps[i]! >= 20 * 2 ** i - 2, `retry ${i + 1} after ≥${20 * 2 ** i} ms: ${gaps.join(",")}`);
      assert.ok(gaps[0]! < 1_000, `the first retry is not the 10 s cap: ${gaps.join(",")}`);
      assert.equal(controller.queue.retries("flaky"), 0, "success forgot the failures");

      failuresLeft = 1;
      const before = Date.now();
      controller.enqueue("flaky");
      await eventually("the retry after one new failure", () =>
        outcomes.filter((o) => o === "success").length === 2 ? true : undefined,
      );
      assert.ok(Date.now() - before < gaps[3]!, "after a reset the backoff starts small again");

      controller.enqueue("terminal");
      controller.enqueue("throws-non-error");
      await eventually("the terminal error", () => (outcomes.includes("terminal_error") ? true : undefined));
      await pause(100);
      assert.equal(attempts.get("terminal")?.length, 1, "a terminal error is not retried");
      assert.ok(
        (attempts.get("throws-non-error")?.length ?? 0) >= 2,
        "a thrown non-Error is retried, not a crash",
      );
    } finally {
      stop.abort();
      await running;
    }
  });

  test("requeueAfterMs reconciles again later; stop waits for the reconcile in flight", async () => {
    const times: number[] = [];
    let release: () => void = () => {};
    let finished = false;
    const controller = new Controller({
      name: "requeue",
      log,
      reconcile: async ({ signal }) => {
        times.push(Date.now());
        if (times.length < 3) return { requeueAfterMs: 50 };
        await new Promise<void>((resolve) => {
          release = resolve;
          signal.addEventListener("abort", () => setTimeout(resolve, 30), { once: true });
        });
        finished = true;
        return {};
      },
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    controller.enqueue("poll");
    await eventually("three reconciles", () => (times.length === 3 ? true : undefined));
    assert.ok(times[1]! - times[0]! >= 45, "requeued after the delay");
    stop.abort();
    await running;
    assert.equal(finished, true, "run resolved only after the in-flight reconcile returned");
    release();
  });
});
