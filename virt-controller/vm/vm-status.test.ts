import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze, jsonEqual } from "../../runtime/index.js";
import type { VirtualMachine } from "../kinds.js";
import { cachedVm, cachedVmi } from "../testing/objects.js";
import { KUBEVIRT_START_BACKOFF } from "./start-failure.js";
import { computeVmStatus, type VmStatusInput } from "./vm-status.js";

const NOW = Date.parse("2024-01-01T00:00:00Z");

function input(extra: Partial<VmStatusInput>): VmStatusInput {
  return {
    vm: cachedVm("Always"),
    vmi: undefined,
    strategy: "Always",
    failure: undefined,
    addStartRequest: false,
    startExpected: false,
    stopExpected: false,
    nowMs: NOW,
    backoff: KUBEVIRT_START_BACKOFF,
    unboundClaims: false,
    dataVolumes: "ready",
    ...extra,
  };
}

describe("computeVmStatus", () => {
  test("a stopped VM: not created, not ready, Ready=False VMINotExists, desiredGeneration, no runStrategy yet", () => {
    const status = computeVmStatus(input({ strategy: "Halted", vm: cachedVm("Halted") }));
    assert.equal(status.printableStatus, "Stopped");
    assert.equal(status.created, false);
    assert.equal(status.ready, false);
    assert.equal(status.desiredGeneration, 2);
    assert.equal(status.runStrategy, undefined, "recorded from the first start on");
    assert.deepEqual(
      status.conditions?.map((c) => [c.type, c.status, c.reason]),
      [["Ready", "False", "VMINotExists"]],
    );
  });

  test("a running VMI: its Ready condition is copied, its other conditions mirrored, observedGeneration from the VMI", () => {
    const vmi = cachedVmi("Running", {
      conditions: [
        { type: "Ready", status: "True", lastTransitionTime: "2024-01-01T00:00:00Z" },
        { type: "Paused", status: "False", reason: "Unpaused" },
      ],
    });
    const status = computeVmStatus(input({ vmi }));
    assert.equal(status.printableStatus, "Running");
    assert.equal(status.ready, true);
    assert.equal(status.created, true);
    assert.equal(status.runStrategy, "Always");
    assert.equal(status.observedGeneration, 2);
    assert.deepEqual(
      status.conditions?.map((c) => c.type),
      ["Ready", "Paused"],
    );
    assert.equal(status.conditions?.[0]?.lastTransitionTime, "2024-01-01T00:00:00Z");
  });

  test("stable: recomputed from its own result and a later clock, nothing changes (no write)", () => {
    const first = computeVmStatus(input({ failure: { reason: "InvalidSpec", message: "bad" } }));
    const vm = deepFreeze<VirtualMachine>({
      ...(structuredClone(cachedVm("Always")) as VirtualMachine),
      status: first,
    });
    const second = computeVmStatus(
      input({ vm, failure: { reason: "InvalidSpec", message: "bad" }, nowMs: NOW + 60_000 }),
    );
    assert.ok(jsonEqual(first, second), JSON.stringify([first, second]));
    const cleared = computeVmStatus(input({ vm }));
    assert.equal(
      cleared.conditions?.some((c) => c.type === "Failure"),
      false,
    );
  });

  test("conditions mirrored from a VMI go when the VMI goes", () => {
    const vm = cachedVm("Always", {
      conditions: [
        { type: "Ready", status: "False", reason: "VMINotExists" },
        { type: "PodScheduled", status: "False", reason: "Unschedulable" },
      ],
    });
    assert.deepEqual(
      computeVmStatus(input({ vm })).conditions?.map((c) => c.type),
      ["Ready"],
    );
  });

  test("state change requests: a Start is cleared once a live VMI exists; a Stop once its VMI is gone", () => {
    const starting = cachedVm("Manual", { stateChangeRequests: [{ action: "Start" }] });
    assert.deepEqual(computeVmStatus(input({ vm: starting, strategy: "Manual" })).stateChangeRequests, [
      { action: "Start" },
    ]);
    assert.equal(
      computeVmStatus(input({ vm: starting, strategy: "Manual", vmi: cachedVmi("Scheduling") }))
        .stateChangeRequests,
      undefined,
    );
    const stopping = cachedVm("Manual", {
      stateChangeRequests: [{ action: "Stop", uid: "vmi-uid" }, { action: "Start" }],
    });
    assert.deepEqual(
      computeVmStatus(input({ vm: stopping, strategy: "Manual", vmi: cachedVmi("Running") }))
        .stateChangeRequests?.length,
      2,
    );
    assert.deepEqual(computeVmStatus(input({ vm: stopping, strategy: "Manual" })).stateChangeRequests, [
      { action: "Start" },
    ]);
  });

  test("a failed VMI under RerunOnFailure queues a Start request", () => {
    const vm = cachedVm("RerunOnFailure", { runStrategy: "RerunOnFailure" });
    const status = computeVmStatus(
      input({
        vm,
        strategy: "RerunOnFailure",
        vmi: cachedVmi("Failed", { wasRunning: true }),
        addStartRequest: true,
      }),
    );
    assert.deepEqual(status.stateChangeRequests, [{ action: "Start" }]);
  });
});
