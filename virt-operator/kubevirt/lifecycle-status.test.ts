import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { KubeVirtStatus } from "../../api/index.js";
import { deepFreeze } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import {
  deletedStatus,
  deletingStatus,
  deletionBlockedStatus,
  invalidStrategyStatus,
  refusedStatus,
} from "./lifecycle-status.js";

const NOW = Date.parse("2024-01-01T00:00:00Z");
const deployed: KubeVirtStatus = {
  phase: "Deployed",
  observedKubeVirtVersion: "v1",
  conditions: [
    {
      type: "Available",
      status: "True",
      reason: "AllComponentsReady",
      message: "All components are ready.",
      lastProbeTime: "2023-12-31T00:00:00Z",
      lastTransitionTime: "2023-12-31T00:00:00Z",
    },
  ],
};

function kubevirt(status?: KubeVirtStatus) {
  return deepFreeze<KubeVirt>({
    metadata: { name: "kubevirt", namespace: "kubevirt" },
    spec: {},
    ...(status ? { status } : {}),
  });
}

function summary(status: KubeVirtStatus): string[] {
  return (status.conditions ?? []).map(
    (condition) => `${condition.type}=${condition.status} ${condition.reason}`,
  );
}

describe("statuses outside an install", () => {
  test("a refused CR: Degraded with the reason, no phase", () => {
    const status = refusedStatus(
      kubevirt(),
      "MultipleKubeVirtsExist",
      "KubeVirt kubevirt/a is already active",
      NOW,
    );
    assert.equal(status.phase, undefined);
    assert.deepEqual(summary(status), [
      "Available=False MultipleKubeVirtsExist",
      "Progressing=False MultipleKubeVirtsExist",
      "Degraded=True MultipleKubeVirtsExist",
    ]);
  });

  test("a blocked uninstall: Deleting, Degraded with the message, Available kept as it was (the components still run)", () => {
    const status = deletionBlockedStatus(kubevirt(deployed), "cannot uninstall: 1 VirtualMachines", NOW);
    assert.equal(status.phase, "Deleting");
    assert.deepEqual(summary(status), [
      "Available=True AllComponentsReady",
      "Progressing=False DeletionBlocked",
      "Degraded=True DeletionBlocked",
    ]);
    assert.equal(status.conditions?.[0]?.lastTransitionTime, "2023-12-31T00:00:00Z");
    assert.equal(status.conditions?.[2]?.message, "cannot uninstall: 1 VirtualMachines");
    assert.equal(status.observedKubeVirtVersion, "v1", "other status fields are kept");
  });

  test("removing, then removed", () => {
    assert.deepEqual(summary(deletingStatus(kubevirt(deployed), "waiting for 2 objects", NOW)), [
      "Available=False Deleting",
      "Progressing=True Deleting",
      "Degraded=False Deleting",
    ]);
    const deleted = deletedStatus(kubevirt(deployed), NOW);
    assert.equal(deleted.phase, "Deleted");
    assert.deepEqual(summary(deleted), [
      "Available=False Deleted",
      "Progressing=False Deleted",
      "Degraded=False Deleted",
    ]);
  });

  test("a strategy that cannot be rendered: Degraded InvalidStrategy, the phase kept", () => {
    const status = invalidStrategyStatus(kubevirt(deployed), "cannot render the install strategy: boom", NOW);
    assert.equal(status.phase, "Deployed");
    assert.deepEqual(summary(status), [
      "Available=True AllComponentsReady",
      "Progressing=False InvalidStrategy",
      "Degraded=True InvalidStrategy",
    ]);
    assert.equal(invalidStrategyStatus(kubevirt(), "x", NOW).phase, "Deploying");
  });
});
