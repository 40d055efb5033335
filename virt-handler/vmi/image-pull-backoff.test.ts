import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ImagePullBackoff } from "./image-pull-backoff.js";

describe("ImagePullBackoff", () => {
  test("the kubelet's delays: 10 s, doubling, at most 5 min; forgotten after a pull", () => {
    const backoff = new ImagePullBackoff();
    const delays: number[] = [];
    let now = 1_000;
    for (let i = 0; i < 7; i += 1) {
      const failure = backoff.failed("uid", "r/x:1", "manifest unknown", now);
      delays.push(failure.retryAt - now);
      now = failure.retryAt;
    }
    assert.deepEqual(delays, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    backoff.forget("uid");
    assert.equal(backoff.failed("uid", "r/x:1", "again", now).retryAt - now, 10_000);
  });

  test("backing off until the retry time, then not", () => {
    const backoff = new ImagePullBackoff({ initialMs: 1_000 });
    const failure = backoff.failed("uid", "r/x:1", "unauthorized", 0);
    assert.equal(backoff.backingOff("uid", 999)?.message, "unauthorized");
    assert.equal(backoff.backingOff("uid", failure.retryAt), undefined);
    assert.equal(backoff.backingOff("other", 0), undefined);
    assert.equal(backoff.errorShownMs, 1_000);
  });
});
