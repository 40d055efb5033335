import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatGoDuration, kubeletBackOff, pullRetryDelayMs, restartDelayMs } from "./back-off.js";

describe("container back-off", () => {
  test("the first restart is immediate, then 10 s doubling up to 5 min", () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((steps) => restartDelayMs(kubeletBackOff, steps));
    assert.deepEqual(delays, [0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  });

  test("image pulls wait 10 s after the first failure, doubling", () => {
    assert.deepEqual(
      [1, 2, 3, 7].map((attempts) => pullRetryDelayMs(kubeletBackOff, attempts)),
      [10_000, 20_000, 40_000, 300_000],
    );
  });

  test("durations read as Go prints them", () => {
    assert.deepEqual(
      [0, 200, 1600, 10_000, 80_000, 160_000, 300_000, 3_600_000, 90_500].map(formatGoDuration),
      ["0s", "200ms", "1.6s", "10s", "1m20s", "2m40s", "5m0s", "1h0m0s", "1m30.5s"],
    );
  });
});
