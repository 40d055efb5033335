import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Clock } from "../clock/clock.js";
import {
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  TokenBucketRateLimiter,
} from "./rate-limiters.js";

function manualClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  return {
    now: () => now,
    schedule: () => () => {},
    advance(ms) {
      now += ms;
    },
  };
}

describe("rate limiters", () => {
  test("per-key exponential backoff doubles up to the cap and resets on forget", () => {
    const limiter = new ItemExponentialRateLimiter(5, 100);
    assert.deepEqual(
      Array.from({ length: 7 }, () => limiter.when("a")),
      [5, 10, 20, 40, 80, 100, 100],
    );
    assert.equal(limiter.when("b"), 5, "keys back off independently");
    assert.equal(limiter.retries("a"), 7);
    limiter.forget("a");
    assert.equal(limiter.retries("a"), 0);
    assert.equal(limiter.when("a"), 5);
  });

  test("the exponential limiter does not overflow after many failures", () => {
    const limiter = new ItemExponentialRateLimiter(5, 1_000_000);
    let last = 0;
    for (let i = 0; i < 200; i++) last = limiter.when("a");
    assert.equal(last, 1_000_000);
  });

  test("the token bucket allows a burst, then spaces retries at qps", () => {
    const clock = manualClock();
    const bucket = new TokenBucketRateLimiter(10, 3, clock);
    assert.deepEqual([bucket.when(), bucket.when(), bucket.when()], [0, 0, 0]);
    assert.equal(Math.round(bucket.when()), 100);
    assert.equal(Math.round(bucket.when()), 200);
    clock.advance(1_000);
    assert.equal(bucket.when(), 0, "tokens refill over time");
  });

  test("max-of takes the longest wait, and the default combines backoff with an overall limit", () => {
    const clock = manualClock();
    const limiter = new MaxOfRateLimiter(
      new ItemExponentialRateLimiter(1, 1000),
      new TokenBucketRateLimiter(1, 1, clock),
    );
    assert.equal(limiter.when("a"), 1);
    assert.equal(Math.round(limiter.when("b")), 1000, "the bucket is empty: the overall limit wins");
    const defaults = defaultControllerRateLimiter({ clock });
    assert.equal(defaults.when("x"), 5);
    assert.equal(defaults.when("x"), 10);
    defaults.forget("x");
    assert.equal(defaults.retries("x"), 0);
  });
});
