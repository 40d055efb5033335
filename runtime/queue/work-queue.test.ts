import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ItemExponentialRateLimiter } from "./rate-limiters.js";
import { RateLimitingQueue } from "./rate-limiting-queue.js";
import { WorkQueue } from "./work-queue.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("WorkQueue", () => {
  test("a key added several times before a worker takes it is handed out once", async () => {
    const queue = new WorkQueue();
    queue.add("a");
    queue.add("b");
    queue.add("a");
    assert.equal(queue.length, 2);
    assert.equal(await queue.get(), "a");
    assert.equal(await queue.get(), "b");
    queue.shutDown();
    assert.equal(await queue.get(), undefined);
  });

  test("a key added while a worker holds it is not handed to a second worker until done", async () => {
    const queue = new WorkQueue();
    queue.add("a");
    const first = await queue.get();
    assert.equal(first, "a");
    queue.add("a");
    queue.add("a");
    assert.equal(queue.length, 0, "the re-added key waits in the dirty set, not in the queue");
    let second: string | undefined;
    const waiting = queue.get().then((key) => {
      second = key;
    });
    await tick();
    assert.equal(second, undefined, "no second worker gets the key while the first holds it");
    queue.done("a");
    await waiting;
    assert.equal(second, "a", "the change made while processing is not lost");
    queue.done("a");
    queue.shutDown();
    assert.equal(await queue.get(), undefined);
  });

  test("waiting workers are woken in turn, one key each", async () => {
    const queue = new WorkQueue();
    const got = [queue.get(), queue.get()];
    queue.add("x");
    queue.add("y");
    assert.deepEqual(await Promise.all(got), ["x", "y"]);
  });

  test("shutdown hands out what is queued, ignores new keys, and drains in-flight work", async () => {
    const queue = new WorkQueue();
    queue.add("a");
    queue.add("b");
    const held = await queue.get();
    let drained = false;
    const drain = queue.shutDownWithDrain().then(() => {
      drained = true;
    });
    queue.add("c");
    assert.equal(await queue.get(), "b");
    assert.equal(await queue.get(), undefined, "c was added after shutdown and is ignored");
    queue.done("b");
    await tick();
    assert.equal(drained, false, "a is still being processed");
    queue.done(held as string);
    await drain;
    assert.equal(drained, true);
  });

  test("reports depth, adds and wait time to its metrics", async () => {
    const seen = { added: 0, depth: [] as number[], waited: 0, worked: 0 };
    const queue = new WorkQueue({
      metrics: {
        added: () => seen.added++,
        depth: (n) => seen.depth.push(n),
        waited: () => seen.waited++,
        worked: () => seen.worked++,
        retried: () => {},
      },
    });
    queue.add("a");
    queue.add("a");
    queue.add("b");
    queue.done((await queue.get()) as string);
    assert.equal(seen.added, 2);
    assert.deepEqual(seen.depth, [1, 2, 1]);
    assert.equal(seen.waited, 1);
    assert.equal(seen.worked, 1);
  });
});

describe("RateLimitingQueue", () => {
  test("addAfter delays a key, keeps the earliest of several delays, and an add queues it at once", async () => {
    const queue = new RateLimitingQueue();
    const started = Date.now();
    queue.addAfter("late", 5_000);
    queue.addAfter("late", 40);
    assert.equal(queue.length, 0);
    assert.equal(await queue.get(), "late");
    const waited = Date.now() - started;
    assert.ok(waited >= 35 && waited < 2_500, `waited ${waited} ms`);
    queue.done("late");
    queue.addAfter("soon", 10_000);
    queue.add("soon");
    assert.equal(queue.length, 1);
    queue.shutDown();
  });

  test("addRateLimited backs off per key, and forget resets the backoff", async () => {
    const limiter = new ItemExponentialRateLimiter(20, 1_000);
    const queue = new RateLimitingQueue({ rateLimiter: limiter });
    const delays: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = Date.now();
      queue.addRateLimited("k");
      assert.equal(await queue.get(), "k");
      delays.push(Date.now() - before);
      queue.done("k");
    }
    assert.equal(queue.retries("k"), 5);
    for (let i = 0; i < delays.length; i++)
      assert.ok(delays[i]! >= 20 * 2 ** i - 2, `delays grow: ${delays.join(", ")}`);
    queue.forget("k");
    assert.equal(queue.retries("k"), 0);
    const before = Date.now();
    queue.addRateLimited("k");
    await queue.get();
    // Without forget the next delay would be 640 ms.
    assert.ok(Date.now() - before < 400, "after forget the first retry is short again");
    queue.shutDown();
  });

  test("shutdown cancels delayed keys", async () => {
    const queue = new RateLimitingQueue();
    queue.addAfter("k", 20);
    queue.shutDown();
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(queue.length, 0);
    assert.equal(await queue.get(), undefined);
  });
});
