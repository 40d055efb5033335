// The start/stop/restart decisions on their own (no API server): KubeVirt's rules for the cases
// the API-level test does not reach.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { StatusError } from "../status/status-error.js";
import { planRestart, planStart, planStop, type StateChangeRequest } from "./vm-lifecycle.js";

function vm(spec: Partial<VirtualMachine["spec"]>, status?: VirtualMachine["status"]): VirtualMachine {
  return {
    metadata: { name: "vm", namespace: "ns" },
    spec: { template: { spec: { domain: { devices: {} } } }, ...spec },
    ...(status ? { status } : {}),
  } as VirtualMachine;
}

function vmi(phase: string, uid = "vmi-uid"): VirtualMachineInstance {
  return {
    metadata: { name: "vm", namespace: "ns", uid },
    spec: { domain: { devices: {} }, terminationGracePeriodSeconds: 30 },
    status: { phase },
  } as VirtualMachineInstance;
}

function refusal(action: () => unknown): { code: number; message: string } {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof StatusError, String(error));
    return { code: error.code, message: error.message };
  }
  assert.fail("expected a refusal");
}

const noStart = { paused: false, dryRun: false };

describe("VM lifecycle decisions", () => {
  test("a VMI in phase Unknown or without a phase does not count as running", () => {
    for (const phase of ["Unknown", ""]) {
      assert.deepEqual(planStart(vm({ runStrategy: "Halted" }), vmi(phase), noStart).write, {
        target: "spec",
        runStrategy: "Always",
      });
    }
    assert.equal(
      refusal(() => planStart(vm({ runStrategy: "Halted" }), vmi("Scheduling"), noStart)).code,
      409,
    );
  });

  test("Halted --paused: a request only when the template does not start paused already", () => {
    const paused = { paused: true, dryRun: false };
    assert.deepEqual(planStart(vm({ runStrategy: "Halted" }), undefined, paused).write, {
      target: "status",
      stateChangeRequests: [{ action: "Start", data: { paused: "true" } }],
      clearStartFailure: false,
    });
    const startsPaused = vm({
      runStrategy: "Halted",
      template: { spec: { domain: { devices: {} }, startStrategy: "Paused" } },
    } as Partial<VirtualMachine["spec"]>);
    assert.deepEqual(planStart(startsPaused, undefined, paused).write, {
      target: "spec",
      runStrategy: "Always",
    });
  });

  test("a start forgets the recorded start failure (the back-off is the user's to cut short)", () => {
    const failing = vm({ runStrategy: "Manual" }, {
      startFailure: { consecutiveFailCount: 3 },
    } as VirtualMachine["status"]);
    const plan = planStart(failing, undefined, noStart);
    assert.equal(plan.write.target === "status" && plan.write.clearStartFailure, true);
  });

  test("a lone Stop replaces pending requests; anything else while requests are pending is refused", () => {
    const pending: StateChangeRequest[] = [{ action: "Start" }];
    const stop = planStop(vm({ runStrategy: "Manual" }, { stateChangeRequests: pending }), vmi("Running"), {
      dryRun: false,
    });
    assert.deepEqual(stop.write.target === "status" && stop.write.stateChangeRequests, [
      { action: "Stop", uid: "vmi-uid" },
    ]);
    const restart = refusal(() =>
      planRestart(vm({ runStrategy: "Always" }, { stateChangeRequests: pending }), vmi("Running"), {
        dryRun: false,
      }),
    );
    assert.equal(restart.code, 500);
    assert.match(restart.message, /stop\/start already underway/);
  });

  test("stop: Always/Once halt even without a VMI, and only a live VMI takes the grace period", () => {
    assert.deepEqual(planStop(vm({ runStrategy: "Always" }), undefined, { gracePeriod: 0, dryRun: false }), {
      write: { target: "spec", runStrategy: "Halted" },
    });
    assert.deepEqual(
      planStop(vm({ runStrategy: "Once" }), vmi("Succeeded"), { gracePeriod: 0, dryRun: false }),
      {
        write: { target: "spec", runStrategy: "Halted" },
      },
    );
    assert.equal(
      planStop(vm({ runStrategy: "Always" }), vmi("Running"), { gracePeriod: 5, dryRun: false })
        .vmiGracePeriod,
      5,
    );
  });

  test("restart: a negative grace period is a bad request; a finished VMI is restarted all the same", () => {
    const negative = refusal(() =>
      planRestart(vm({ runStrategy: "Always" }), vmi("Running"), { gracePeriodSeconds: -1, dryRun: false }),
    );
    assert.deepEqual(negative, { code: 400, message: "gracePeriod has to be greater or equal to 0" });
    const plan = planRestart(vm({ runStrategy: "Manual" }), vmi("Failed", "old"), { dryRun: false });
    assert.deepEqual(plan.write.target === "status" && plan.write.stateChangeRequests, [
      { action: "Stop", uid: "old" },
      { action: "Start" },
    ]);
  });
});
