import assert from "node:assert/strict";
import { test } from "node:test";
import { Backoff } from "./backoff.js";

test("backoff grows to its ceiling, spreads delays with jitter, and resets", () => {
  const low = new Backoff({ initialMs: 100, maxMs: 1_000, jitter: 0.5, random: () => 0 });
  assert.deepEqual(
    Array.from({ length: 6 }, () => low.next()),
    [100, 200, 400, 800, 1_000, 1_000],
  );
  low.reset();
  assert.equal(low.next(), 100);
  const high = new Backoff({ initialMs: 100, maxMs: 1_000, jitter: 0.5, random: () => 0.999 });
  const first = high.next();
  assert.ok(first > 149 && first < 150, `jitter stretches the delay: ${first}`);
  assert.throws(() => new Backoff({ initialMs: 0 }));
});
