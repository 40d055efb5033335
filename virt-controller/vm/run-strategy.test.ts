import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RunStrategy } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { cachedVm, cachedVmi } from "../testing/objects.js";
import { decideRunStrategy, type VmDecision } from "./run-strategy.js";

const NOW = Date.parse("2024-01-01T00:00:00Z");
const start = { start: { paused: false } };
const stop: VmDecision = { stop: true };

describe("decideRunStrategy (KubeVirt's run strategies)", () => {
  const cases: [
    string,
    RunStrategy,
    Frozen<VirtualMachine>["status"] | undefined,
    Frozen<VirtualMachineInstance> | undefined,
    VmDecision,
  ][] = [
    ["Always without a VMI starts one", "Always", undefined, undefined, start],
    ["Always keeps a running VMI", "Always", undefined, cachedVmi("Running"), {}],
    ["Always restarts a VMI that succeeded", "Always", undefined, cachedVmi("Succeeded"), stop],
    ["Always restarts a VMI that failed", "Always", undefined, cachedVmi("Failed"), stop],
    [
      "Always: a Stop request for the VMI restarts it",
      "Always",
      { stateChangeRequests: [{ action: "Stop", uid: "vmi-uid" }] },
      cachedVmi("Running"),
      stop,
    ],
    [
      "Always: a Stop request for another VMI is ignored",
      "Always",
      { stateChangeRequests: [{ action: "Stop", uid: "old" }] },
      cachedVmi("Running"),
      {},
    ],
    [
      "Always waits out the crash-loop back-off",
      "Always",
      { startFailure: { consecutiveFailCount: 1, retryAfterTimestamp: "2024-01-01T00:00:05Z" } },
      undefined,
      { waitMs: 5000 },
    ],
    [
      "RerunOnFailure: for a failed VMI a Start is queued first",
      "RerunOnFailure",
      { runStrategy: "RerunOnFailure" },
      cachedVmi("Failed"),
      { addStartRequest: true },
    ],
    [
      "RerunOnFailure: once the Start is stored, the failed VMI is deleted",
      "RerunOnFailure",
      { runStrategy: "RerunOnFailure", stateChangeRequests: [{ action: "Start" }] },
      cachedVmi("Failed"),
      stop,
    ],
    [
      "RerunOnFailure: a succeeded VMI is deleted, no Start",
      "RerunOnFailure",
      { runStrategy: "RerunOnFailure" },
      cachedVmi("Succeeded"),
      stop,
    ],
    [
      "RerunOnFailure: after success, stays stopped",
      "RerunOnFailure",
      { runStrategy: "RerunOnFailure" },
      undefined,
      {},
    ],
    ["RerunOnFailure: a new VM starts", "RerunOnFailure", undefined, undefined, start],
    [
      "RerunOnFailure: switched from Halted, starts",
      "RerunOnFailure",
      { runStrategy: "Halted" },
      undefined,
      start,
    ],
    [
      "RerunOnFailure: a Start request starts",
      "RerunOnFailure",
      { runStrategy: "RerunOnFailure", stateChangeRequests: [{ action: "Start" }] },
      undefined,
      start,
    ],
    ["Manual does nothing by itself", "Manual", undefined, undefined, {}],
    [
      "Manual starts on a Start request",
      "Manual",
      { stateChangeRequests: [{ action: "Start" }] },
      undefined,
      start,
    ],
    [
      "Manual: a paused Start request starts paused",
      "Manual",
      { stateChangeRequests: [{ action: "Start", data: { paused: "true" } }] },
      undefined,
      { start: { paused: true } },
    ],
    [
      "Manual stops on a Stop request",
      "Manual",
      { stateChangeRequests: [{ action: "Stop", uid: "vmi-uid" }] },
      cachedVmi("Running"),
      stop,
    ],
    ["Manual keeps a finished VMI", "Manual", undefined, cachedVmi("Succeeded"), {}],
    ["Halted deletes the VMI", "Halted", undefined, cachedVmi("Running"), stop],
    [
      "Halted: a VMI being deleted is left alone",
      "Halted",
      undefined,
      cachedVmi("Running", { deleting: true }),
      {},
    ],
    [
      "Halted with a Start request becomes Always",
      "Halted",
      { stateChangeRequests: [{ action: "Start" }] },
      undefined,
      { switchToAlways: true },
    ],
    ["Once starts a VMI", "Once", undefined, undefined, start],
    ["Once does not restart a finished VMI", "Once", undefined, cachedVmi("Succeeded"), {}],
  ];
  for (const [name, strategy, status, vmi, expected] of cases) {
    test(name, () => {
      assert.deepEqual(
        decideRunStrategy(cachedVm(strategy, status as VirtualMachine["status"]), vmi, strategy, NOW),
        expected,
      );
    });
  }

  test("a VM being deleted deletes its VMI and starts nothing", () => {
    const vm = cachedVm("Always", undefined, { deleting: true });
    assert.deepEqual(decideRunStrategy(vm, undefined, "Always", NOW), {});
    assert.deepEqual(decideRunStrategy(vm, cachedVmi("Running"), "Always", NOW), stop);
  });

  test("WaitAsReceiver is reported as unsupported", () => {
    assert.match(
      decideRunStrategy(cachedVm("WaitAsReceiver"), undefined, "WaitAsReceiver", NOW).unsupported ?? "",
      /not supported/,
    );
  });
});
