import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Deployment, ReplicaSet } from "../kinds.js";
import { rolloutStatus, setPausedCondition, stuckCheckAfterMs } from "./deployment-status.js";

const t0 = Date.parse("2024-01-01T00:00:00Z");

function deployment(
  status: Deployment["status"],
  extra: Partial<NonNullable<Deployment["spec"]>> = {},
): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "ns", generation: 2 },
    spec: {
      replicas: 3,
      progressDeadlineSeconds: 60,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } } },
      ...extra,
    },
    status,
  };
}

function replicaSet(name: string, replicas: number, available: number): ReplicaSet {
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name },
    spec: { replicas, selector: {} },
    status: { replicas, readyReplicas: available, availableReplicas: available },
  };
}

const conditions = (status: Deployment["status"]): Record<string, string> =>
  Object.fromEntries((status?.conditions ?? []).map((c) => [c.type, `${c.status}/${c.reason}`]));

describe("Deployment status", () => {
  test("counts come from the ReplicaSets; Available follows maxUnavailable", () => {
    const next = replicaSet("web-new", 2, 1);
    const status = rolloutStatus(deployment({}), [replicaSet("web-old", 2, 2), next], next, t0);
    assert.equal(status.observedGeneration, 2);
    assert.deepEqual(
      [
        status.replicas,
        status.updatedReplicas,
        status.readyReplicas,
        status.availableReplicas,
        status.unavailableReplicas,
      ],
      [4, 2, 3, 3, 1],
    );
    assert.equal(conditions(status).Available, "True/MinimumReplicasAvailable");
    const short = rolloutStatus(deployment({}), [replicaSet("web-new", 3, 1)], undefined, t0);
    assert.equal(conditions(short).Available, "False/MinimumReplicasUnavailable");
  });

  test("Progressing: updated while it moves, available once complete, timed out when stuck past the deadline", () => {
    const newReplicaSet = replicaSet("web-new", 3, 1);
    const moving = rolloutStatus(
      deployment({ updatedReplicas: 1, availableReplicas: 0 }),
      [newReplicaSet],
      newReplicaSet,
      t0,
    );
    assert.equal(conditions(moving).Progressing, "True/ReplicaSetUpdated");
    assert.equal(stuckCheckAfterMs(deployment(moving), moving, t0), 61_000);
    const stuck = rolloutStatus(deployment(moving), [newReplicaSet], newReplicaSet, t0 + 61_000);
    assert.equal(conditions(stuck).Progressing, "False/ProgressDeadlineExceeded");
    const done = replicaSet("web-new", 3, 3);
    const complete = rolloutStatus(deployment({ ...moving, observedGeneration: 2 }), [done], done, t0 + 1000);
    assert.equal(conditions(complete).Progressing, "True/NewReplicaSetAvailable");
    assert.equal(
      complete.conditions?.find((c) => c.type === "Progressing")?.message,
      'ReplicaSet "web-new" has successfully progressed.',
    );
  });

  test("pausing and resuming show in Progressing", () => {
    const paused = deployment({}, { paused: true });
    assert.ok(setPausedCondition(paused, t0));
    assert.equal(conditions(paused.status).Progressing, "Unknown/DeploymentPaused");
    assert.ok(!setPausedCondition(paused, t0), "already shown");
    paused.spec = { ...(paused.spec ?? { selector: {}, template: {} }), paused: false };
    assert.ok(setPausedCondition(paused, t0));
    assert.equal(conditions(paused.status).Progressing, "Unknown/DeploymentResumed");
  });
});
