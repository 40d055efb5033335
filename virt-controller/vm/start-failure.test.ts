import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cachedVm, cachedVmi } from "../testing/objects.js";
import {
  KUBEVIRT_START_BACKOFF,
  nextStartFailure,
  startBackoffDelayMs,
  startBackoffRemainingMs,
} from "./start-failure.js";

const NOW = Date.parse("2024-01-01T00:00:00Z");

describe("crash-loop back-off", () => {
  test("KubeVirt's delays: 10 s × failures², plus up to half of it, capped at 5 minutes", () => {
    assert.equal(
      startBackoffDelayMs(1, KUBEVIRT_START_BACKOFF, () => 0),
      10_000,
    );
    assert.equal(
      startBackoffDelayMs(2, KUBEVIRT_START_BACKOFF, () => 0),
      40_000,
    );
    assert.equal(
      startBackoffDelayMs(3, KUBEVIRT_START_BACKOFF, () => 0.99),
      90_000 + 44_550,
    );
    assert.equal(
      startBackoffDelayMs(10, KUBEVIRT_START_BACKOFF, () => 0),
      300_000,
    );
  });

  test("a VMI that ends without ever running counts once; the retry time is in whole seconds, never early", () => {
    const first = nextStartFailure(undefined, "Always", cachedVmi("Failed", { uid: "a" }), NOW + 300, {
      intervalMs: 1000,
      maxDelayMs: 5000,
    });
    assert.equal(first?.consecutiveFailCount, 1);
    assert.equal(first?.lastFailedVMIUID, "a");
    const retryAt = Date.parse(first?.retryAfterTimestamp ?? "");
    assert.ok(retryAt >= NOW + 1300 && retryAt % 1000 === 0, first?.retryAfterTimestamp ?? "");
    assert.deepEqual(
      nextStartFailure(first, "Always", cachedVmi("Failed", { uid: "a" }), NOW, KUBEVIRT_START_BACKOFF),
      first,
      "same VMI: not counted twice",
    );
    assert.equal(
      nextStartFailure(first, "Always", cachedVmi("Failed", { uid: "b" }), NOW, KUBEVIRT_START_BACKOFF)
        ?.consecutiveFailCount,
      2,
    );
    assert.deepEqual(
      nextStartFailure(first, "Always", undefined, NOW, KUBEVIRT_START_BACKOFF),
      first,
      "kept while no VMI exists",
    );
  });

  test("a VMI that reached Running, or a strategy that does not restart, clears it", () => {
    const current = {
      consecutiveFailCount: 3,
      lastFailedVMIUID: "a",
      retryAfterTimestamp: "2024-01-01T00:01:00Z",
    };
    assert.equal(
      nextStartFailure(
        current,
        "Always",
        cachedVmi("Failed", { uid: "b", wasRunning: true }),
        NOW,
        KUBEVIRT_START_BACKOFF,
      ),
      undefined,
    );
    assert.equal(nextStartFailure(current, "Halted", undefined, NOW, KUBEVIRT_START_BACKOFF), undefined);
    assert.equal(
      nextStartFailure(current, "Manual", cachedVmi("Failed"), NOW, KUBEVIRT_START_BACKOFF),
      undefined,
    );
  });

  test("the time left comes from status.startFailure.retryAfterTimestamp", () => {
    const vm = cachedVm("Always", {
      startFailure: { consecutiveFailCount: 1, retryAfterTimestamp: "2024-01-01T00:00:07Z" },
    });
    assert.equal(startBackoffRemainingMs(vm, NOW), 7000);
    assert.equal(startBackoffRemainingMs(vm, NOW + 8000), 0);
    assert.equal(startBackoffRemainingMs(cachedVm("Always"), NOW), 0);
  });
});
