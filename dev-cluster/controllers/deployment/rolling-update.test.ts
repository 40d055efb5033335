import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  AlreadyExistsError,
  deepFreeze,
  type Frozen,
  mutableCopy,
  NotFoundError,
} from "../../../runtime/index.js";
import type { Deployment, ReplicaSet } from "../kinds.js";
import { isComplete } from "./deployment-status.js";
import { proportionalSync } from "./proportional-scale.js";
import { isScalingEvent } from "./replica-set-groups.js";
import { rolloutRolling } from "./rolling-update.js";
import type { RolloutContext } from "./rollout-context.js";

/**
 * Runs the rolling update against an in-memory stand-in for the API server and the ReplicaSet
 * controller, step by step, and checks kube's two promises at every step: never more than
 * replicas + maxSurge pods asked for, never fewer than replicas - maxUnavailable available.
 */
class FakeCluster {
  readonly replicaSets = new Map<string, ReplicaSet>();
  #clock = 0;

  readonly client: RolloutContext["replicaSets"] = {
    create: async (replicaSet) => {
      const name = replicaSet.metadata?.name ?? "";
      if (this.replicaSets.has(name))
        throw new AlreadyExistsError({
          code: 409,
          reason: "AlreadyExists",
          method: "POST",
          path: name,
          message: "exists",
        });
      const stored = mutableCopy<ReplicaSet>(replicaSet);
      stored.metadata = {
        ...stored.metadata,
        uid: `uid-${name}`,
        generation: 1,
        creationTimestamp: new Date(++this.#clock * 1000).toISOString(),
      };
      this.replicaSets.set(name, stored);
      return mutableCopy(stored);
    },
    get: async (ref) => {
      const found = this.replicaSets.get(ref.name);
      if (!found)
        throw new NotFoundError({
          code: 404,
          reason: "NotFound",
          method: "GET",
          path: ref.name,
          message: "missing",
        });
      return mutableCopy(found);
    },
    update: async (replicaSet) => {
      const name = replicaSet.metadata?.name ?? "";
      const old = this.replicaSets.get(name);
      const stored = mutableCopy<ReplicaSet>(replicaSet);
      const specChanged = JSON.stringify(old?.spec) !== JSON.stringify(stored.spec);
      stored.metadata = {
        ...stored.metadata,
        generation: (old?.metadata?.generation ?? 1) + (specChanged ? 1 : 0),
      };
      stored.status = old?.status ?? { replicas: 0 };
      this.replicaSets.set(name, stored);
      return mutableCopy(stored);
    },
    delete: async (ref) => {
      this.replicaSets.delete(ref.name);
      return undefined;
    },
  };

  /** The ReplicaSet controller and kubelets in one: pods appear at once and become available one step later. */
  settle(): void {
    for (const replicaSet of this.replicaSets.values()) {
      const wanted = replicaSet.spec?.replicas ?? 0;
      const existed = replicaSet.status?.replicas ?? 0;
      replicaSet.status = {
        replicas: wanted,
        readyReplicas: Math.min(wanted, existed),
        availableReplicas: Math.min(wanted, existed),
        observedGeneration: replicaSet.metadata?.generation ?? 0,
      };
    }
  }

  list(): Frozen<ReplicaSet>[] {
    return [...this.replicaSets.values()].map((replicaSet) => deepFreeze(mutableCopy(replicaSet)));
  }
}

function deploymentOf(
  image: string,
  replicas: number,
  maxSurge: number | string,
  maxUnavailable: number | string,
): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "ns", uid: "d-uid", generation: 1 },
    spec: {
      replicas,
      revisionHistoryLimit: 1,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { app: "web" } },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge, maxUnavailable } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image }] } },
    },
  };
}

function contextFor(cluster: FakeCluster, deployment: Deployment, nowMs: number): RolloutContext {
  const noop = async (): Promise<Deployment> => deployment;
  return {
    deployment: mutableCopy(deployment),
    replicaSets: cluster.client,
    deployments: { mergePatch: noop, updateStatus: noop },
    events: { normal() {}, warning() {} },
    nowMs,
    podsOf: () => [],
  };
}

async function rollOut(
  cluster: FakeCluster,
  deployment: Deployment,
  bounds: { maxPods: number; minAvailable: number },
): Promise<number> {
  for (let step = 1; step <= 60; step++) {
    const context = contextFor(cluster, deployment, step * 1000);
    await rolloutRolling(context, cluster.list());
    deployment.metadata = context.deployment.metadata;
    deployment.status = context.deployment.status;
    const replicaSets = [...cluster.replicaSets.values()];
    const asked = replicaSets.reduce((sum, rs) => sum + (rs.spec?.replicas ?? 0), 0);
    assert.ok(asked <= bounds.maxPods, `step ${step}: ${asked} pods asked for, more than ${bounds.maxPods}`);
    cluster.settle();
    const available = [...cluster.replicaSets.values()].reduce(
      (sum, rs) => sum + (rs.status?.availableReplicas ?? 0),
      0,
    );
    assert.ok(
      available >= bounds.minAvailable,
      `step ${step}: ${available} available, fewer than ${bounds.minAvailable}`,
    );
    if (
      deployment.status &&
      isComplete(deployment, deployment.status) &&
      replicaSets.every(
        (rs) =>
          rs.spec?.replicas === 0 ||
          rs.spec?.template?.spec?.containers[0]?.image ===
            deployment.spec?.template.spec?.containers[0]?.image,
      )
    )
      return step;
  }
  throw new Error("the rollout did not complete in 60 steps");
}

describe("rolling update", () => {
  for (const [surge, unavailable, maxPods, minAvailable] of [
    ["25%", "25%", 13, 8],
    [0, 1, 10, 9],
    [3, 0, 13, 10],
    ["100%", "0%", 20, 10],
  ] as const) {
    test(`maxSurge ${surge}, maxUnavailable ${unavailable}: at most ${maxPods} pods, at least ${minAvailable} available`, async () => {
      const cluster = new FakeCluster();
      const deployment = deploymentOf("app:1", 10, surge, unavailable);
      await rollOut(cluster, deployment, { maxPods, minAvailable: 0 });
      deployment.spec = deploymentOf("app:2", 10, surge, unavailable).spec;
      deployment.metadata = { ...deployment.metadata, generation: 2 };
      const steps = await rollOut(cluster, deployment, { maxPods, minAvailable });
      assert.ok(steps > 1);
      const replicaSets = [...cluster.replicaSets.values()];
      assert.deepEqual(
        replicaSets
          .map((rs) => [rs.metadata?.annotations?.["deployment.kubernetes.io/revision"], rs.spec?.replicas])
          .sort(),
        [
          ["1", 0],
          ["2", 10],
        ],
      );
      assert.equal(deployment.metadata?.annotations?.["deployment.kubernetes.io/revision"], "2");
      const progressing = deployment.status?.conditions?.find((c) => c.type === "Progressing");
      assert.equal(progressing?.reason, "NewReplicaSetAvailable");
    });
  }

  test("history beyond revisionHistoryLimit is deleted once the rollout completes", async () => {
    const cluster = new FakeCluster();
    const deployment = deploymentOf("app:1", 2, 1, 0);
    for (const [generation, image] of ["app:1", "app:2", "app:3"].entries()) {
      deployment.spec = deploymentOf(image, 2, 1, 0).spec;
      deployment.metadata = { ...deployment.metadata, generation: generation + 1 };
      await rollOut(cluster, deployment, { maxPods: 3, minAvailable: generation === 0 ? 0 : 2 });
    }
    // One more sync after completion trims the history (as the next event would).
    await rollOut(cluster, deployment, { maxPods: 3, minAvailable: 2 });
    const revisions = [...cluster.replicaSets.values()]
      .map((rs) => rs.metadata?.annotations?.["deployment.kubernetes.io/revision"])
      .sort();
    assert.deepEqual(revisions, ["2", "3"]);
  });

  test("a resize in the middle of a rollout is shared among the ReplicaSets in proportion", async () => {
    const cluster = new FakeCluster();
    const deployment = deploymentOf("app:1", 10, 3, 2);
    await rollOut(cluster, deployment, { maxPods: 13, minAvailable: 0 });
    deployment.spec = deploymentOf("app:2", 10, 3, 2).spec;
    const step = contextFor(cluster, deployment, 100_000);
    await rolloutRolling(step, cluster.list());
    cluster.settle();
    const sizes = (): number[] => [...cluster.replicaSets.values()].map((rs) => rs.spec?.replicas ?? 0);
    assert.deepEqual(sizes(), [8, 3], "mid-rollout: new up to the surge, old down by maxUnavailable");
    deployment.spec = { ...deploymentOf("app:2", 20, 3, 2).spec, replicas: 20 } as Deployment["spec"];
    assert.ok(isScalingEvent(deployment, cluster.list()));
    await proportionalSync(contextFor(cluster, deployment, 101_000), cluster.list());
    const resized = sizes();
    assert.equal(
      resized.reduce((a, b) => a + b, 0),
      23,
      "the new size plus maxSurge",
    );
    assert.ok((resized[0] ?? 0) > 8 && (resized[1] ?? 0) > 3, `both grew: ${resized.join(", ")}`);
  });
});
