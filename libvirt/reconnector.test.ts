import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Reconnector } from "./reconnector.js";

test("retries with growing delays until an attempt succeeds, reporting each failure", async () => {
  const attempts: number[] = [];
  const failures: number[] = [];
  const started = Date.now();
  const done = new Promise<void>((resolve) => {
    const reconnector = new Reconnector(
      { initialDelayMs: 10, maxDelayMs: 40 },
      async () => {
        attempts.push(Date.now() - started);
        if (attempts.length < 4) throw new Error("still down");
        resolve();
      },
      (_err, attempt) => failures.push(attempt),
    );
    reconnector.start();
    reconnector.start(); // a second start while running changes nothing
  });
  await done;
  assert.equal(attempts.length, 4);
  assert.deepEqual(failures, [1, 2, 3]);
  // Delays 10, 20, 40, 40 (capped): the fourth attempt comes after at least 110 ms.
  assert.ok((attempts[3] ?? 0) >= 105, `attempt times ${attempts.join(", ")}`);
});

test("stop cancels the pending attempt", async () => {
  let attempts = 0;
  const reconnector = new Reconnector(
    { initialDelayMs: 20 },
    async () => {
      attempts += 1;
    },
    () => {},
  );
  reconnector.start();
  reconnector.stop();
  await sleep(60);
  assert.equal(attempts, 0);
  assert.equal(reconnector.running, false);
});
