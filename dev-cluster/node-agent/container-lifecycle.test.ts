import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { ContainerStatus, Pod } from "./kinds.js";
import {
  type AgentTestCluster,
  logRequest,
  readAll,
  startAgentTestCluster,
  testImages,
} from "./testing/agent-test-cluster.js";

const status = (pod: Pod): ContainerStatus | undefined => pod.status?.containerStatuses?.[0];
const condition = (pod: Pod, type: string): string | undefined =>
  pod.status?.conditions?.find((candidate) => candidate.type === type)?.status;

const server = (env: Record<string, string>) => ({
  name: "server",
  image: "test/http-server",
  env: [
    { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
    { name: "PORT", value: "8080" },
    ...Object.entries(env).map(([name, value]) => ({ name, value })),
  ],
});

describe("containers", () => {
  let cluster: AgentTestCluster;
  before(async () => {
    cluster = await startAgentTestCluster({ restartBackOffMs: 200, imagePullBackOffMs: 1000 });
  });
  after(async () => {
    await cluster?.close();
  });

  test("a crashing container goes to CrashLoopBackOff with a growing back-off", async () => {
    await cluster.createPod("crasher", {
      containers: [{ name: "main", image: "test/sh", args: ["echo crashing; exit 3"] }],
    });
    const messages = new Set<string>();
    const pod = await cluster.waitForPod(
      "crasher",
      "three back-offs",
      (current) => {
        const waiting = status(current)?.state?.waiting;
        if (waiting?.reason === "CrashLoopBackOff" && waiting.message)
          messages.add(waiting.message.split(" ")[1] ?? "");
        return messages.has("800ms");
      },
      15_000,
    );
    assert.ok(messages.has("200ms") || messages.has("400ms"), `back-offs seen: ${[...messages].join(", ")}`);
    assert.ok((status(pod)?.restartCount ?? 0) >= 3);
    assert.equal(status(pod)?.lastState?.terminated?.exitCode, 3);
    assert.equal(status(pod)?.lastState?.terminated?.reason, "Error");
    assert.equal(pod.status?.phase, "Running");
    const logs = await readAll(await cluster.agent?.logs.open(logRequest(pod, "main", { previous: true })));
    assert.equal(logs, "crashing\n");
  });

  test("restartPolicy Never and OnFailure end the pod as Failed and Succeeded", async () => {
    await cluster.createPod("fails", {
      restartPolicy: "Never",
      containers: [{ name: "main", image: "test/sh", args: ["exit 2"] }],
    });
    await cluster.createPod("succeeds", {
      restartPolicy: "OnFailure",
      initContainers: [{ name: "setup", image: "test/sh", args: ["exit 0"] }],
      containers: [{ name: "main", image: "test/sh", args: ["exit 0"] }],
    });
    const failed = await cluster.waitForPod("fails", "Failed", (pod) => pod.status?.phase === "Failed");
    assert.equal(status(failed)?.state?.terminated?.exitCode, 2);
    assert.equal(status(failed)?.restartCount, 0);
    const succeeded = await cluster.waitForPod(
      "succeeds",
      "Succeeded",
      (pod) => pod.status?.phase === "Succeeded",
    );
    assert.equal(status(succeeded)?.state?.terminated?.reason, "Completed");
    assert.equal(succeeded.status?.initContainerStatuses?.[0]?.state?.terminated?.exitCode, 0);
    assert.equal(condition(succeeded, "Initialized"), "True");
    assert.equal(condition(succeeded, "Ready"), "False");
  });

  test("a missing executable ends in StartError; a missing ConfigMap waits in CreateContainerConfigError", async () => {
    await cluster.createPod("no-binary", {
      restartPolicy: "Never",
      containers: [{ name: "main", image: "test/sh", command: ["/no/such/program"] }],
    });
    await cluster.createPod("no-config", {
      containers: [
        {
          name: "main",
          image: "test/sleep",
          env: [{ name: "X", valueFrom: { configMapKeyRef: { name: "absent", key: "x" } } }],
        },
      ],
    });
    const failed = await cluster.waitForPod("no-binary", "Failed", (pod) => pod.status?.phase === "Failed");
    assert.equal(status(failed)?.state?.terminated?.reason, "StartError");
    assert.equal(status(failed)?.state?.terminated?.exitCode, 128);
    assert.match(status(failed)?.state?.terminated?.message ?? "", /no such program|not found/);
    const waiting = await cluster.waitForPod(
      "no-config",
      "CreateContainerConfigError",
      (pod) => status(pod)?.state?.waiting?.reason === "CreateContainerConfigError",
    );
    assert.equal(status(waiting)?.state?.waiting?.message, 'configmap "absent" not found');
  });

  test("an unknown image waits in ErrImagePull, then ImagePullBackOff, and starts once the image map has it", async () => {
    await cluster.createPod("no-image", { containers: [{ name: "main", image: "example.com/nosuch:1.0" }] });
    const reasons: string[] = [];
    await cluster.waitForPod("no-image", "ImagePullBackOff after ErrImagePull", (pod) => {
      const reason = status(pod)?.state?.waiting?.reason;
      if (reason && reasons.at(-1) !== reason) reasons.push(reason);
      return reason === "ImagePullBackOff";
    });
    assert.deepEqual(reasons.slice(reasons.indexOf("ErrImagePull")), ["ErrImagePull", "ImagePullBackOff"]);
    const pending = await cluster.getPod("no-image");
    assert.equal(pending?.status?.phase, "Pending");
    const map = JSON.parse(readFileSync(cluster.imageMapPath, "utf8")) as { images: Record<string, unknown> };
    writeFileSync(
      cluster.imageMapPath,
      JSON.stringify({ images: { ...map.images, "example.com/nosuch": testImages["test/sleep"] } }),
    );
    const started = await cluster.waitForPod(
      "no-image",
      "running",
      (pod) => pod.status?.phase === "Running",
      10_000,
    );
    assert.match(status(started)?.imageID ?? "", /sha256:/);
  });

  test("a readiness probe gates Ready; a failing liveness probe restarts the container", async () => {
    const probe = (path: string) => ({
      httpGet: { path, port: 8080 },
      periodSeconds: 1,
      failureThreshold: 1,
    });
    await cluster.createPod("slow-ready", {
      containers: [{ ...server({ READY_AFTER_MS: "1500" }), readinessProbe: probe("/ready") }],
    });
    await cluster.createPod("unhealthy", {
      terminationGracePeriodSeconds: 1,
      containers: [{ ...server({ FAIL_LIVENESS_AFTER_MS: "500" }), livenessProbe: probe("/healthz") }],
    });
    const notReady = await cluster.waitForPod(
      "slow-ready",
      "running",
      (pod) => status(pod)?.state?.running !== undefined,
    );
    assert.equal(condition(notReady, "Ready"), "False");
    assert.equal(status(notReady)?.ready, false);
    const ready = await cluster.waitForPod(
      "slow-ready",
      "ready",
      (pod) => condition(pod, "Ready") === "True",
    );
    assert.equal(status(ready)?.ready, true);
    assert.equal(condition(ready, "ContainersReady"), "True");
    const restarted = await cluster.waitForPod(
      "unhealthy",
      "restarted",
      (pod) => (status(pod)?.restartCount ?? 0) >= 1,
      15_000,
    );
    assert.ok(status(restarted)?.lastState?.terminated, "the killed instance is the last state");
  });

  test("deletion sends SIGTERM, waits for the process, then the pod object goes", async () => {
    const pod = await cluster.createPod("graceful", { containers: [server({ TERM_DELAY_MS: "300" })] });
    const runningPod = await cluster.waitForPod(
      "graceful",
      "running",
      (current) => status(current)?.state?.running !== undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const follow = await cluster.agent?.logs.open(logRequest(runningPod, "server", { follow: true }));
    const deletedAt = Date.now();
    await cluster.pods.delete({ namespace: "default", name: "graceful" });
    const deleting = await cluster.getPod("graceful");
    assert.ok(deleting?.metadata?.deletionTimestamp, "the pod stays while its containers stop");
    const output = await readAll(follow);
    assert.match(output, /listening on .*\nreceived SIGTERM\n$/);
    await eventuallyGone(cluster, "graceful");
    assert.ok(Date.now() - deletedAt >= 300, "the pod went only after the process had ended");
    assert.equal(pod.metadata?.name, "graceful");
  });

  test("a process ignoring SIGTERM is killed after the grace period", async () => {
    await cluster.createPod("stubborn", {
      terminationGracePeriodSeconds: 1,
      containers: [{ name: "main", image: "test/sh", args: ["trap '' TERM; while :; do sleep 0.1; done"] }],
    });
    await cluster.waitForPod("stubborn", "running", (pod) => status(pod)?.state?.running !== undefined);
    const deletedAt = Date.now();
    await cluster.pods.delete({ namespace: "default", name: "stubborn" });
    await eventuallyGone(cluster, "stubborn");
    const took = Date.now() - deletedAt;
    assert.ok(took >= 1000 && took < 4000, `killed after the 1 s grace period (took ${took} ms)`);
  });
});

async function eventuallyGone(cluster: AgentTestCluster, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (!(await cluster.getPod(name))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`pod ${name} was not removed`);
}
