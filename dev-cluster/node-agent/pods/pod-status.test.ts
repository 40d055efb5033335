import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CachedPod } from "../kinds.js";
import type { PodRecord } from "../state/pod-record.js";
import { type ContainerView, computePodStatus, podPhase } from "./pod-status.js";

function input(
  restartPolicy: string,
  views: Record<string, ContainerView>,
  exitCodes: Record<string, number> = {},
) {
  const pod = {
    metadata: { name: "p", namespace: "n", uid: "u" },
    spec: { restartPolicy, containers: Object.keys(views).map((name) => ({ name, image: "img" })) },
    status: { phase: "Pending", qosClass: "BestEffort" },
  } as unknown as CachedPod;
  const record: PodRecord = {
    version: 1,
    uid: "u",
    namespace: "n",
    name: "p",
    startTime: "2024-01-01T00:00:00Z",
    network: { mode: "netns", podIP: "10.244.0.2", hostIP: "10.244.0.1", netns: "ns" },
    containers: Object.keys(views).map((name) => ({
      name,
      init: false,
      image: "img",
      restartCount: 0,
      backoffSteps: 0,
      ...(exitCodes[name] !== undefined
        ? { terminated: { exitCode: exitCodes[name] ?? 0, reason: "x", finishedAt: "2024-01-01T00:00:01Z" } }
        : {}),
    })),
  };
  return {
    pod,
    record,
    views: new Map(Object.entries(views)),
    terminating: false,
    now: Date.parse("2024-01-01T00:00:02Z"),
  };
}

const running: ContainerView = { state: "running", ready: true, started: true };
const ended: ContainerView = { state: "terminated" };

describe("pod phase", () => {
  test("follows kubelet's rules", () => {
    assert.equal(
      podPhase(input("Always", { a: running, b: { state: "waiting", reason: "ContainerCreating" } })),
      "Pending",
    );
    assert.equal(podPhase(input("Always", { a: running, b: ended }, { b: 1 })), "Running");
    assert.equal(podPhase(input("Always", { a: { state: "back-off", message: "" } })), "Running");
    assert.equal(podPhase(input("Never", { a: ended, b: ended }, { a: 0, b: 1 })), "Failed");
    assert.equal(podPhase(input("Never", { a: ended }, { a: 0 })), "Succeeded");
    assert.equal(podPhase(input("OnFailure", { a: ended }, { a: 0 })), "Succeeded");
    assert.equal(podPhase({ ...input("Always", { a: ended }, { a: 0 }), terminating: true }), "Succeeded");
    assert.equal(podPhase({ ...input("Always", { a: ended }, { a: 143 }), terminating: true }), "Failed");
  });
});

describe("pod status", () => {
  test("reports conditions, addresses and container states, and keeps qosClass", () => {
    const status = computePodStatus(
      input("Always", { a: running, b: { state: "running", ready: false, started: true } }),
    );
    assert.equal(status.phase, "Running");
    assert.equal(status.qosClass, "BestEffort");
    assert.equal(status.podIP, "10.244.0.2");
    assert.deepEqual(status.hostIPs, [{ ip: "10.244.0.1" }]);
    const conditions = Object.fromEntries((status.conditions ?? []).map((c) => [c.type, c]));
    assert.equal(conditions.Ready?.status, "False");
    assert.equal(conditions.Ready?.message, "containers with unready status: [b]");
    assert.equal(conditions.PodScheduled?.status, "True");
    assert.equal(conditions.Initialized?.status, "True");
    assert.equal(conditions.PodReadyToStartContainers?.status, "True");
    assert.deepEqual(status.containerStatuses?.[1]?.state, { running: { startedAt: "" } });
    assert.equal(status.containerStatuses?.[1]?.ready, false);
  });

  test("a container in back-off waits in CrashLoopBackOff with its last end as lastState", () => {
    const status = computePodStatus(
      input("Always", { a: { state: "back-off", message: "back-off 10s" } }, { a: 3 }),
    );
    assert.deepEqual(status.containerStatuses?.[0]?.state, {
      waiting: { reason: "CrashLoopBackOff", message: "back-off 10s" },
    });
    assert.equal(status.containerStatuses?.[0]?.lastState?.terminated?.exitCode, 3);
  });
});
