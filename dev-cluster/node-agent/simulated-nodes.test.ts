import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { type AgentTestCluster, startAgentTestCluster } from "./testing/agent-test-cluster.js";

describe("pods on simulated nodes", () => {
  let cluster: AgentTestCluster;
  before(async () => {
    cluster = await startAgentTestCluster({ simulatedNodes: ["sim-1", "sim-2"] });
  });
  after(async () => {
    await cluster?.close();
  });

  test("become Running and Ready at once, with addresses of the fake range, and go at once when deleted", async () => {
    for (const [index, nodeName] of ["sim-1", "sim-2", "sim-1"].entries()) {
      await cluster.createPod(`fake-${index}`, {
        nodeName,
        initContainers: [{ name: "init", image: "anything/at-all" }],
        containers: [{ name: "main", image: "virt-launcher" }],
      });
    }
    const pods = await Promise.all(
      [0, 1, 2].map((index) =>
        cluster.waitForPod(
          `fake-${index}`,
          "ready",
          (pod) => pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false,
        ),
      ),
    );
    const ips = pods.map((pod) => pod.status?.podIP ?? "");
    assert.equal(new Set(ips).size, 3, `distinct addresses: ${ips.join(", ")}`);
    assert.ok(ips.every((ip) => ip.startsWith("10.240.")));
    const first = pods[0];
    assert.equal(first?.status?.phase, "Running");
    assert.equal(first?.status?.containerStatuses?.[0]?.state?.running !== undefined, true);
    assert.equal(first?.status?.initContainerStatuses?.[0]?.state?.terminated?.reason, "Completed");
    assert.equal(first?.status?.qosClass, "BestEffort", "what the API server set is kept");

    await cluster.pods.delete({ namespace: "default", name: "fake-0" });
    await eventually("fake-0 gone", async () => ((await cluster.getPod("fake-0")) ? undefined : true), 5000);
  });
});
