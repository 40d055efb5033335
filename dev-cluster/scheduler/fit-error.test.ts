import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fitErrorMessage } from "./fit-error.js";

const cpu = { reasons: ["Insufficient cpu"], unresolvable: false };
const affinity = { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true };

describe("kube-scheduler's unschedulable message", () => {
  test("counts reasons per node, sorted, then the preemption verdict", () => {
    assert.equal(
      fitErrorMessage({ numAllNodes: 4, failures: [cpu, affinity, affinity, affinity] }),
      "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't match Pod's node affinity/selector. " +
        "preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, " +
        "3 Preemption is not helpful for scheduling.",
    );
  });

  test("one node can have several reasons; sorting is by string, as Go's sort.Strings", () => {
    const both = { reasons: ["Insufficient cpu", "Insufficient memory"], unresolvable: false };
    const taint = { reasons: ["node(s) had untolerated taint {dedicated: gpu}"], unresolvable: true };
    const failures = [both, both, both, ...Array.from({ length: 10 }, () => taint)];
    assert.equal(
      fitErrorMessage({ numAllNodes: 13, failures }),
      "0/13 nodes are available: 10 node(s) had untolerated taint {dedicated: gpu}, 3 Insufficient cpu, " +
        "3 Insufficient memory. preemption: 0/13 nodes are available: 10 Preemption is not helpful for scheduling, " +
        "3 No preemption victims found for incoming pod.",
    );
  });

  test("nodes a PreFilter left out count under their own reason", () => {
    const pods = { reasons: ["Too many pods"], unresolvable: false };
    assert.equal(
      fitErrorMessage({
        numAllNodes: 46,
        failures: [pods],
        absent: { count: 45, reason: "node(s) didn't satisfy plugin(s) [NodeAffinity]" },
      }),
      "0/46 nodes are available: 1 Too many pods, 45 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
        "preemption: 0/46 nodes are available: 1 No preemption victims found for incoming pod, " +
        "45 Preemption is not helpful for scheduling.",
    );
  });

  test("a PreFilter rejection replaces the per-node reasons", () => {
    assert.equal(
      fitErrorMessage({ numAllNodes: 2, failures: [], preFilterMessage: "pod affinity terms conflict" }),
      "0/2 nodes are available: pod affinity terms conflict. " +
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
  });

  test("a pod that may not preempt says so", () => {
    assert.equal(
      fitErrorMessage({ numAllNodes: 1, failures: [cpu], preemptionPolicy: "Never" }),
      "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.",
    );
  });
});
