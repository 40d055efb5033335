import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ContainerStatus, Pod } from "./kinds.js";
import { type AgentTestCluster, startAgentTestCluster } from "./testing/agent-test-cluster.js";

const status = (pod: Pod): ContainerStatus | undefined => pod.status?.containerStatuses?.[0];
const ended = (pod: Pod) => pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";

// Processes share the host's file system: a container's /dev/termination-log is $KUBEVIRT_TS_ROOT/dev/termination-log.
describe("termination messages", () => {
  let cluster: AgentTestCluster;
  before(async () => {
    cluster = await startAgentTestCluster({ restartBackOffMs: 100, mode: "loopback" });
  });
  after(async () => {
    await cluster?.close();
  });

  test("the file at /dev/termination-log becomes state.terminated.message, at most 4096 bytes", async () => {
    await cluster.createPod("writes-message", {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ['printf "disk too small" > "$KUBEVIRT_TS_ROOT/dev/termination-log"; exit 1'],
        },
      ],
    });
    await cluster.createPod("long-message", {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ['head -c 5000 /dev/zero | tr "\\0" x > "$KUBEVIRT_TS_ROOT/dev/termination-log"'],
        },
      ],
    });
    const failed = await cluster.waitForPod("writes-message", "Failed", ended);
    assert.equal(failed.status?.phase, "Failed");
    assert.equal(status(failed)?.state?.terminated?.exitCode, 1);
    assert.equal(status(failed)?.state?.terminated?.message, "disk too small");
    const long = await cluster.waitForPod("long-message", "Succeeded", ended);
    assert.equal(status(long)?.state?.terminated?.message, "x".repeat(4096));
  });

  test("a custom terminationMessagePath is mapped like a mount; each instance starts with an empty file", async () => {
    // The first run leaves a message and fails; the restarted one succeeds and writes none.
    const script = [
      'if [ -e "$KUBEVIRT_TS_VOLUME_WORK/ran" ]; then exit 0; fi',
      'touch "$KUBEVIRT_TS_VOLUME_WORK/ran"',
      'printf "first run failed" > "$KUBEVIRT_TS_ROOT/run/message"',
      "exit 3",
    ].join("; ");
    await cluster.createPod("custom-path", {
      restartPolicy: "OnFailure",
      volumes: [{ name: "work", emptyDir: {} }],
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: [script],
          terminationMessagePath: "/run/message",
          volumeMounts: [{ name: "work", mountPath: "/work" }],
        },
      ],
    });
    const pod = await cluster.waitForPod("custom-path", "Succeeded after a restart", ended);
    assert.equal(pod.status?.phase, "Succeeded");
    assert.equal(status(pod)?.restartCount, 1);
    assert.equal(status(pod)?.lastState?.terminated?.exitCode, 3);
    assert.equal(status(pod)?.lastState?.terminated?.message, "first run failed");
    assert.equal(status(pod)?.state?.terminated?.reason, "Completed");
    assert.equal(status(pod)?.state?.terminated?.message, undefined);
  });

  test("FallbackToLogsOnError gives a failed container with an empty file its log's last 80 lines", async () => {
    const fallback = { terminationMessagePolicy: "FallbackToLogsOnError" } as const;
    await cluster.createPod("fails-loudly", {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ["for i in $(seq 1 100); do echo line $i; done; exit 2"],
          ...fallback,
        },
      ],
    });
    await cluster.createPod("fails-verbosely", {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ["head -c 3000 /dev/zero | tr '\\0' y; echo; exit 2"],
          ...fallback,
        },
      ],
    });
    await cluster.createPod("succeeds-loudly", {
      restartPolicy: "Never",
      containers: [{ name: "main", image: "test/sh", args: ["echo all is well"], ...fallback }],
    });
    await cluster.createPod("fails-with-file", {
      restartPolicy: "Never",
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ['echo noise; printf "the real reason" > "$KUBEVIRT_TS_ROOT/dev/termination-log"; exit 1'],
          ...fallback,
        },
      ],
    });
    const loud = await cluster.waitForPod("fails-loudly", "Failed", ended);
    const expected = Array.from({ length: 80 }, (_, index) => `line ${index + 21}\n`).join("");
    assert.equal(status(loud)?.state?.terminated?.message, expected);
    const verbose = await cluster.waitForPod("fails-verbosely", "Failed", ended);
    assert.equal(status(verbose)?.state?.terminated?.message, `${"y".repeat(2047)}\n`);
    const quiet = await cluster.waitForPod("succeeds-loudly", "Succeeded", ended);
    assert.equal(status(quiet)?.state?.terminated?.message, undefined);
    const withFile = await cluster.waitForPod("fails-with-file", "Failed", ended);
    assert.equal(status(withFile)?.state?.terminated?.message, "the real reason");
  });
});
