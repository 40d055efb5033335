import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { KubeVirtStatus } from "../../api/index.js";
import { deepFreeze } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import type { InstallStrategy } from "../strategy/install-strategy.js";
import { computeInstallStatus, type InstallObservation } from "./install-status.js";

const NOW = Date.parse("2024-01-01T00:00:00Z");
const identity = { namespace: "kubevirt", registry: "ghcr.io/kubevirt-ts", version: "v1" };
const strategy = (id: string, version = "v1"): InstallStrategy => ({
  registry: "ghcr.io/kubevirt-ts",
  version,
  id,
  objects: [],
});
const ready = {
  available: true,
  rolling: false,
  summary: "Deployment kubevirt/a: 1 of 1 replicas available, 1 updated",
};
const down = {
  available: false,
  rolling: false,
  summary: "DaemonSet kubevirt/b: 0 of 1 scheduled pods available, 1 updated",
};
const rolling = {
  available: false,
  rolling: true,
  summary: "Deployment kubevirt/a: 1 of 1 replicas available, 0 updated",
};

function kubevirt(status?: KubeVirtStatus) {
  return deepFreeze<KubeVirt>({
    metadata: { name: "kubevirt", namespace: "kubevirt", generation: 3 },
    spec: {},
    ...(status ? { status } : {}),
  });
}

function observe(id: string, extra: Partial<InstallObservation> = {}): InstallObservation {
  return { strategy: strategy(id), crdsPending: [], missing: [], workloads: [ready], ...extra };
}

function conditionsOf(status: KubeVirtStatus): Record<string, string> {
  return Object.fromEntries((status.conditions ?? []).map((c) => [c.type, `${c.status} ${c.reason}`]));
}

describe("the install status", () => {
  test("waiting for CRDs: Deploying, Progressing, not yet Available, not Degraded; the target is set", () => {
    const status = computeInstallStatus(
      kubevirt(),
      identity,
      observe("s1", { crdsPending: ["widgets.example.io"] }),
      NOW,
    );
    assert.equal(status.phase, "Deploying");
    assert.deepEqual(conditionsOf(status), {
      Available: "False DeploymentInProgress",
      Progressing: "True DeploymentInProgress",
      Degraded: "False DeploymentInProgress",
    });
    assert.match(
      status.conditions?.[0]?.message ?? "",
      /waiting for CRDs to be established: widgets.example.io/,
    );
    assert.deepEqual(
      [
        status.operatorVersion,
        status.targetKubeVirtVersion,
        status.targetDeploymentID,
        status.observedDeploymentID,
      ],
      ["v1", "v1", "s1", undefined],
    );
    assert.equal(status.observedGeneration, 3);
  });

  test("everything available: Deployed, the observed fields catch up", () => {
    const status = computeInstallStatus(kubevirt(), identity, observe("s1"), NOW);
    assert.equal(status.phase, "Deployed");
    assert.deepEqual(conditionsOf(status), {
      Available: "True AllComponentsReady",
      Progressing: "False AllComponentsReady",
      Degraded: "False AllComponentsReady",
    });
    assert.deepEqual(
      [status.observedKubeVirtRegistry, status.observedKubeVirtVersion, status.observedDeploymentID],
      ["ghcr.io/kubevirt-ts", "v1", "s1"],
    );
  });

  test("a workload of a completed install went down: still Deployed, not Available, Degraded", () => {
    const deployed = computeInstallStatus(kubevirt(), identity, observe("s1"), NOW);
    const status = computeInstallStatus(
      kubevirt(deployed),
      identity,
      observe("s1", { workloads: [ready, down] }),
      NOW + 5000,
    );
    assert.equal(status.phase, "Deployed");
    assert.deepEqual(conditionsOf(status), {
      Available: "False ComponentsUnavailable",
      Progressing: "False ComponentsUnavailable",
      Degraded: "True ComponentsUnavailable",
    });
    assert.match(status.conditions?.[2]?.message ?? "", /DaemonSet kubevirt\/b: 0 of 1/);
    assert.equal(status.conditions?.[0]?.lastTransitionTime, "2024-01-01T00:00:05.000Z");
  });

  test("an update rolling: Deploying again, Progressing, not Degraded, the observed version stays the old one", () => {
    const deployed = computeInstallStatus(kubevirt(), identity, observe("s1"), NOW);
    const update = { ...observe("s2", { workloads: [rolling] }), strategy: strategy("s2", "v2") };
    const status = computeInstallStatus(kubevirt(deployed), identity, update, NOW);
    assert.equal(status.phase, "Deploying");
    assert.deepEqual(conditionsOf(status), {
      Available: "False DeploymentInProgress",
      Progressing: "True DeploymentInProgress",
      Degraded: "False DeploymentInProgress",
    });
    assert.deepEqual([status.targetKubeVirtVersion, status.observedKubeVirtVersion], ["v2", "v1"]);
  });

  test("a failed write is Degraded with its reason", () => {
    const failure = { reason: "ApplyFailed", message: "cannot apply Deployment kubevirt/a: invalid" };
    const status = computeInstallStatus(kubevirt(), identity, observe("s1", { failure }), NOW);
    assert.equal(conditionsOf(status).Degraded, "True ApplyFailed");
    assert.equal(status.observedDeploymentID, undefined);
  });

  test("the same observation again computes the same status (no write)", () => {
    const first = computeInstallStatus(kubevirt(), identity, observe("s1"), NOW);
    assert.deepEqual(computeInstallStatus(kubevirt(first), identity, observe("s1"), NOW + 60_000), first);
  });
});
