import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type AgentTestCluster,
  logRequest,
  readAll,
  startAgentTestCluster,
} from "./testing/agent-test-cluster.js";

describe("container logs", () => {
  let cluster: AgentTestCluster;
  before(async () => {
    cluster = await startAgentTestCluster({ restartBackOffMs: 300 });
  });
  after(async () => {
    await cluster?.close();
  });

  test("tail, timestamps, limit and previous read the files of each instance", async () => {
    await cluster.createPod("counter", {
      containers: [
        {
          name: "main",
          image: "test/sh",
          args: ['for i in 1 2 3 4 5; do echo "line $i"; done; echo "to stderr" >&2; exit 1'],
        },
      ],
    });
    const pod = await cluster.waitForPod(
      "counter",
      "restarted once",
      (current) => (current.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
    );
    const source = cluster.agent?.logs;
    assert.ok(source);
    const all = await readAll(await source.open(logRequest(pod, "main", { previous: true })));
    assert.equal(all, "line 1\nline 2\nline 3\nline 4\nline 5\nto stderr\n");
    assert.equal(
      await readAll(await source.open(logRequest(pod, "main", { previous: true, tailLines: 2 }))),
      "line 5\nto stderr\n",
    );
    assert.equal(
      await readAll(await source.open(logRequest(pod, "main", { previous: true, limitBytes: 10 }))),
      "line 1\nlin",
    );
    const stamped = await readAll(
      await source.open(logRequest(pod, "main", { previous: true, timestamps: true, tailLines: 1 })),
    );
    assert.match(stamped, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z to stderr\n$/);
    const time = Date.parse(stamped.split(" ")[0] ?? "");
    assert.ok(Math.abs(Date.now() - time) < 60_000, "a plausible time");
    assert.equal(await source.open(logRequest(pod, "other")), undefined, "no such container");
    assert.equal(await source.open({ ...logRequest(pod, "main"), podUid: "no-such-uid" }), undefined);
  });

  test("follow streams until the container ends", async () => {
    await cluster.createPod("talker", {
      restartPolicy: "Never",
      containers: [{ name: "main", image: "test/sh", args: ["echo first; sleep 0.6; echo second"] }],
    });
    const pod = await cluster.waitForPod(
      "talker",
      "running",
      (current) => current.status?.phase === "Running",
    );
    const startedAt = Date.now();
    const output = await readAll(await cluster.agent?.logs.open(logRequest(pod, "main", { follow: true })));
    assert.equal(output, "first\nsecond\n");
    assert.ok(Date.now() - startedAt >= 300, "it waited for the second line");
  });

  test("kubectl logs shows a pod's output through the API server", async () => {
    await cluster.createPod("greeter", {
      restartPolicy: "Never",
      containers: [{ name: "main", image: "test/sh", args: ["echo hello from the pod"] }],
    });
    await cluster.waitForPod("greeter", "done", (pod) => pod.status?.phase === "Succeeded");
    const result = await cluster.api.kubectl(["logs", "greeter"]);
    assert.equal(result.stdout, "hello from the pod\n", result.stderr);
  });
});
