import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { jsonEqual } from "../../runtime/index.js";
import { cachedVmi, launcherPod } from "../testing/objects.js";
import { nextVmiState } from "./vmi-lifecycle.js";

const NOW = Date.parse("2024-01-01T00:00:10Z");
const FINALIZER = "kubevirt.io/virtualMachineControllerFinalize";

describe("nextVmiState: the VMI as virt-controller wants it, given its launcher pod", () => {
  test("Pending without a pod: nothing to write", () => {
    const vmi = cachedVmi(undefined);
    assert.ok(jsonEqual(nextVmiState({ vmi, pod: undefined, invalidSpec: undefined, nowMs: NOW }), vmi));
  });

  test("Pending with a new pod: Scheduling, the finalizer, qosClass, Ready=False, one transition", () => {
    const next = nextVmiState({
      vmi: cachedVmi(undefined),
      pod: launcherPod({}),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(next.status?.phase, "Scheduling");
    assert.deepEqual(next.metadata?.finalizers, [FINALIZER]);
    assert.equal(next.status?.qosClass, "Burstable");
    assert.equal(next.status?.conditions?.find((c) => c.type === "Ready")?.reason, "GuestNotRunning");
    assert.deepEqual(next.status?.phaseTransitionTimestamps, [
      { phase: "Scheduling", phaseTransitionTimestamp: "2024-01-01T00:00:10.000Z" },
    ]);
  });

  test("a bound, running pod hands the VMI to its node: Scheduled, nodeName, label, activePods", () => {
    const next = nextVmiState({
      vmi: cachedVmi("Scheduling", { finalizers: [FINALIZER] }),
      pod: launcherPod({ node: "n1", phase: "Running" }),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(next.status?.phase, "Scheduled");
    assert.equal(next.status?.nodeName, "n1");
    assert.equal(next.metadata?.labels?.["kubevirt.io/nodeName"], "n1");
    assert.deepEqual(next.status?.activePods, { "pod-uid": "n1" });
  });

  test("after a restart, a Pending VMI whose pod already runs goes to Scheduled in one write", () => {
    const next = nextVmiState({
      vmi: cachedVmi(undefined),
      pod: launcherPod({ node: "n1", phase: "Running" }),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(next.status?.phase, "Scheduled");
    assert.deepEqual(
      next.status?.phaseTransitionTimestamps?.map((entry) => entry.phase),
      ["Scheduling", "Scheduled"],
    );
    assert.deepEqual(next.metadata?.finalizers, [FINALIZER]);
  });

  test("a pod that is bound but not running yet changes nothing (no extra write)", () => {
    const scheduling = nextVmiState({
      vmi: cachedVmi(undefined),
      pod: launcherPod({}),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    const again = nextVmiState({
      vmi: scheduling,
      pod: launcherPod({ node: "n1", phase: "Pending" }),
      invalidSpec: undefined,
      nowMs: NOW + 5000,
    });
    assert.ok(jsonEqual(again, scheduling));
  });

  test("unschedulable and image pull errors become conditions, and go once resolved", () => {
    const unschedulable = nextVmiState({
      vmi: cachedVmi("Scheduling"),
      pod: launcherPod({ unschedulable: "0/1 nodes are available" }),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    const scheduled = unschedulable.status?.conditions?.find((c) => c.type === "PodScheduled");
    assert.deepEqual(
      [scheduled?.status, scheduled?.reason, scheduled?.message],
      ["False", "Unschedulable", "0/1 nodes are available"],
    );
    const pulling = nextVmiState({
      vmi: unschedulable,
      pod: launcherPod({ node: "n1", pullError: true }),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(
      pulling.status?.conditions?.some((c) => c.type === "PodScheduled"),
      false,
    );
    assert.equal(pulling.status?.conditions?.find((c) => c.type === "Synchronized")?.reason, "ErrImagePull");
    const running = nextVmiState({
      vmi: pulling,
      pod: launcherPod({ node: "n1", phase: "Running" }),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(
      running.status?.conditions?.some((c) => c.type === "Synchronized"),
      false,
    );
  });

  test("a pod that fails or vanishes before the VM runs fails the VMI; never on a node, the finalizer goes", () => {
    const failed = nextVmiState({
      vmi: cachedVmi("Scheduling", { finalizers: [FINALIZER] }),
      pod: launcherPod({ node: "n1", phase: "Failed" }),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(failed.status?.phase, "Failed");
    assert.equal(failed.status?.reason, "PodFailed");
    assert.equal(failed.metadata?.finalizers, undefined);
    const vanished = nextVmiState({
      vmi: cachedVmi("Scheduled", { nodeName: "n1", finalizers: [FINALIZER] }),
      pod: undefined,
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(vanished.status?.reason, "PodNotExists");
    assert.deepEqual(vanished.metadata?.finalizers, [FINALIZER], "on a node: virt-handler releases it");
  });

  test("Running and later phases are virt-handler's: nothing changes", () => {
    for (const phase of ["Running", "Succeeded"] as const) {
      const vmi = cachedVmi(phase, { nodeName: "n1", finalizers: [FINALIZER] });
      assert.ok(
        jsonEqual(nextVmiState({ vmi, pod: undefined, invalidSpec: undefined, nowMs: NOW }), vmi),
        phase,
      );
    }
  });

  test("deleted before it reached a node: Failed and released", () => {
    const next = nextVmiState({
      vmi: cachedVmi("Scheduling", { deleting: true, finalizers: [FINALIZER] }),
      pod: launcherPod({}),
      invalidSpec: undefined,
      nowMs: NOW,
    });
    assert.equal(next.status?.phase, "Failed");
    assert.equal(next.status?.reason, "DeletedBeforeScheduled");
    assert.equal(next.metadata?.finalizers, undefined);
  });

  test("an invalid spec: a Failure condition, still Pending; fixed, the condition goes", () => {
    const invalid = nextVmiState({
      vmi: cachedVmi(undefined),
      pod: undefined,
      invalidSpec: "invalid spec: disk x not found",
      nowMs: NOW,
    });
    assert.equal(invalid.status?.phase, "Pending");
    assert.equal(
      invalid.status?.conditions?.find((c) => c.type === "Failure")?.message,
      "invalid spec: disk x not found",
    );
    const fixed = nextVmiState({ vmi: invalid, pod: launcherPod({}), invalidSpec: undefined, nowMs: NOW });
    assert.equal(
      fixed.status?.conditions?.some((c) => c.type === "Failure"),
      false,
    );
    assert.equal(fixed.status?.phase, "Scheduling");
  });

  test("a refused pod create: Synchronized=False with its reason, still Pending; created later, the condition goes", () => {
    const podCreateFailure = {
      reason: "FailedCreate",
      message: "failed to create virtual machine pod: forbidden",
    };
    const refused = nextVmiState({
      vmi: cachedVmi(undefined),
      pod: undefined,
      invalidSpec: undefined,
      podCreateFailure,
      nowMs: NOW,
    });
    assert.equal(refused.status?.phase, "Pending");
    const synchronized = refused.status?.conditions?.find((c) => c.type === "Synchronized");
    assert.deepEqual(
      [synchronized?.status, synchronized?.reason, synchronized?.message],
      ["False", "FailedCreate", podCreateFailure.message],
    );
    const again = nextVmiState({
      vmi: refused,
      pod: undefined,
      invalidSpec: undefined,
      podCreateFailure,
      nowMs: NOW + 5000,
    });
    assert.ok(jsonEqual(again, refused), "the same refusal again writes nothing");
    const created = nextVmiState({ vmi: refused, pod: launcherPod({}), invalidSpec: undefined, nowMs: NOW });
    assert.equal(
      created.status?.conditions?.some((c) => c.type === "Synchronized"),
      false,
    );
    assert.equal(created.status?.phase, "Scheduling");
  });
});
