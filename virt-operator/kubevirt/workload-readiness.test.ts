import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze } from "../../runtime/index.js";
import type { InstalledObject } from "./managed-kinds.js";
import { readinessOf } from "./workload-readiness.js";

function workload(generation: number, spec: Record<string, unknown>, status: Record<string, number>) {
  return deepFreeze({
    metadata: { name: "w", namespace: "kubevirt", generation },
    spec,
    status,
  } as InstalledObject);
}

describe("workload readiness", () => {
  test("a Deployment is available when every replica is updated and available at the current generation", () => {
    const ready = readinessOf(
      "Deployment",
      workload(2, { replicas: 2 }, { observedGeneration: 2, updatedReplicas: 2, availableReplicas: 2 }),
    );
    assert.deepEqual(ready, {
      available: true,
      rolling: false,
      summary: "Deployment kubevirt/w: 2 of 2 replicas available, 2 updated",
    });
  });

  test("a Deployment whose new generation is not observed yet is rolling", () => {
    const ready = readinessOf(
      "Deployment",
      workload(3, { replicas: 2 }, { observedGeneration: 2, updatedReplicas: 2, availableReplicas: 2 }),
    );
    assert.equal(ready?.available, false);
    assert.equal(ready?.rolling, true);
    assert.match(ready?.summary ?? "", /generation not yet observed/);
  });

  test("a Deployment half rolled, or with too few available replicas", () => {
    const half = readinessOf(
      "Deployment",
      workload(2, { replicas: 2 }, { observedGeneration: 2, updatedReplicas: 1, availableReplicas: 2 }),
    );
    assert.deepEqual([half?.available, half?.rolling], [false, true]);
    const short = readinessOf(
      "Deployment",
      workload(2, { replicas: 2 }, { observedGeneration: 2, updatedReplicas: 2, availableReplicas: 1 }),
    );
    assert.deepEqual([short?.available, short?.rolling], [false, false]);
  });

  test("a Deployment whose old replicas still run is rolling, as kubectl rollout status says", () => {
    const ready = readinessOf(
      "Deployment",
      workload(
        2,
        { replicas: 2 },
        { observedGeneration: 2, replicas: 3, updatedReplicas: 2, availableReplicas: 3 },
      ),
    );
    assert.deepEqual([ready?.available, ready?.rolling], [false, true]);
    assert.match(ready?.summary ?? "", /1 old pending termination/);
  });

  test("replicas default to 1; a Deployment with no status is not available", () => {
    assert.equal(readinessOf("Deployment", workload(1, {}, {}))?.available, false);
  });

  test("a DaemonSet is available when every scheduled pod is updated and available", () => {
    const ready = readinessOf(
      "DaemonSet",
      workload(
        1,
        {},
        { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 },
      ),
    );
    assert.equal(ready?.available, true);
    const short = readinessOf(
      "DaemonSet",
      workload(
        1,
        {},
        { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 2 },
      ),
    );
    assert.equal(short?.available, false);
  });

  test("a DaemonSet scheduled on no node is not yet available", () => {
    const none = readinessOf(
      "DaemonSet",
      workload(
        1,
        {},
        { observedGeneration: 1, desiredNumberScheduled: 0, updatedNumberScheduled: 0, numberAvailable: 0 },
      ),
    );
    assert.deepEqual([none?.available, none?.rolling], [false, false]);
  });

  test("an APIService is available when the aggregator says so; until it has checked, it is not", () => {
    const apiService = (conditions: unknown[] | undefined) =>
      deepFreeze({
        metadata: { name: "v1.subresources.kubevirt.io" },
        ...(conditions ? { status: { conditions } } : {}),
      } as InstalledObject);
    const unchecked = readinessOf("APIService", apiService(undefined));
    assert.deepEqual([unchecked?.available, unchecked?.rolling], [false, false]);
    const down = readinessOf(
      "APIService",
      apiService([
        { type: "Available", status: "False", reason: "MissingEndpoints", message: "no virt-api" },
      ]),
    );
    assert.equal(down?.available, false);
    assert.equal(
      down?.summary,
      "APIService v1.subresources.kubevirt.io: Available False (MissingEndpoints: no virt-api)",
    );
    const up = readinessOf(
      "APIService",
      apiService([{ type: "Available", status: "True", reason: "Passed" }]),
    );
    assert.equal(up?.available, true);
  });

  test("other kinds have no readiness", () => {
    assert.equal(readinessOf("ClusterRole", workload(1, {}, {})), undefined);
  });
});
