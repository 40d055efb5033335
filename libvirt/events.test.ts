import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Connection } from "./connection.js";
import {
  DefinedDetail,
  StartedDetail,
  StoppedDetail,
  SuspendedDetail,
  UndefinedDetail,
} from "./event-details.js";
import type { LifecycleEvent } from "./events.js";
import { testDomainXml, uniqueName } from "./testing/test-domains.js";

/** Polls until `condition` holds; fails after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe("lifecycle events on test:///default", () => {
  let conn: Connection;
  const callbackErrors: unknown[] = [];
  before(async () => {
    conn = await Connection.open("test:///default", { onCallbackError: (err) => callbackErrors.push(err) });
  });
  after(async () => {
    await conn.close();
  });

  test("500 define/start/destroy/undefine cycles deliver every event exactly once, in order", async () => {
    const prefix = uniqueName("cycle");
    const seen = new Map<string, string[]>();
    const subscription = conn.onLifecycle((event) => {
      if (!event.domain.name.startsWith(prefix)) return;
      const list = seen.get(event.domain.name) ?? [];
      list.push(`${event.kind}/${event.detail}`);
      seen.set(event.domain.name, list);
    });
    const cycles = 500;
    for (let i = 0; i < cycles; i++) {
      const domain = await conn.defineDomain(testDomainXml(`${prefix}-${i}`));
      await domain.start();
      await domain.destroy();
      await domain.undefine();
      domain.free();
    }
    const total = () => [...seen.values()].reduce((sum, list) => sum + list.length, 0);
    await until(() => total() >= cycles * 4, 10_000, `${cycles * 4} events`);
    await sleep(100); // anything extra would arrive by now
    subscription.unsubscribe();
    assert.equal(total(), cycles * 4);
    const expected = [
      `defined/${DefinedDetail.Added}`,
      `started/${StartedDetail.Booted}`,
      `stopped/${StoppedDetail.Destroyed}`,
      `undefined/${UndefinedDetail.Removed}`,
    ];
    for (let i = 0; i < cycles; i++) assert.deepEqual(seen.get(`${prefix}-${i}`), expected, `cycle ${i}`);
  });

  test("suspend, resume and stop arrive typed; a domain's listener sees only its own events", async () => {
    const mine: LifecycleEvent[] = [];
    const domain = await conn.defineDomain(testDomainXml(uniqueName("typed")));
    const other = await conn.defineDomain(testDomainXml(uniqueName("other")));
    const subscription = domain.onLifecycle((event) => mine.push(event));
    await domain.start();
    await other.start();
    await domain.suspend();
    await domain.resume();
    await domain.shutdown();
    await other.destroy();
    await until(() => mine.some((e) => e.kind === "stopped"), 2_000, "the stopped event");
    subscription.unsubscribe();
    await Promise.all([domain.undefine(), other.undefine()]);
    assert.deepEqual(
      mine.map((e) => e.kind),
      // The test driver emits no "shutdown" event before "stopped" (QEMU does).
      ["started", "suspended", "resumed", "stopped"],
    );
    const suspended = mine.find((e) => e.kind === "suspended");
    assert.equal(suspended?.detail, SuspendedDetail.Paused);
    assert.equal(mine.find((e) => e.kind === "stopped")?.detail, StoppedDetail.Shutdown);
    assert.ok(mine.every((e) => e.domain.uuid === domain.uuid && e.domain.name === domain.name));
    domain.free();
    other.free();
  });

  test("a throwing listener is reported and neither kills the process nor starves other listeners", async () => {
    const received: string[] = [];
    const thrower = conn.onLifecycle(() => {
      throw new Error("listener bug");
    });
    const good = conn.onLifecycle((event) => received.push(event.kind));
    const domain = await conn.defineDomain(testDomainXml(uniqueName("throw")));
    await domain.undefine();
    await until(() => received.includes("undefined"), 2_000, "the undefined event");
    thrower.unsubscribe();
    good.unsubscribe();
    domain.free();
    assert.deepEqual(received, ["defined", "undefined"]);
    assert.ok(callbackErrors.length >= 2);
    assert.ok(callbackErrors.every((err) => err instanceof Error && err.message === "listener bug"));
  });

  test("after unsubscribing no more events are delivered", async () => {
    const received: string[] = [];
    const subscription = conn.onLifecycle((event) => received.push(event.kind));
    subscription.unsubscribe();
    const domain = await conn.defineDomain(testDomainXml(uniqueName("quiet")));
    await domain.undefine();
    domain.free();
    await sleep(50);
    assert.deepEqual(received, []);
  });
});
