import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { boundNode, podManifest, startTestCluster } from "./testing/cluster.js";

const small = { cpu: "1", memory: "2Gi", pods: "110" };

describe("the scheduler against the dev API server", () => {
  test("binds pods by nodeSelector, required affinity, taints and resources", async () => {
    const cluster = await startTestCluster([
      { count: 1, namePrefix: "plain-", capacity: { cpu: "2", memory: "4Gi", pods: "110" } },
      {
        count: 1,
        namePrefix: "kvm-",
        capacity: { cpu: "2", memory: "4Gi", pods: "110", "devices.kubevirt.io/kvm": "1k" },
        labels: { "kubevirt.io/schedulable": "true" },
      },
      {
        count: 1,
        namePrefix: "gpu-",
        capacity: { cpu: "8", memory: "16Gi", pods: "110" },
        labels: { accelerator: "gpu" },
        taints: [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }],
      },
    ]);
    try {
      await cluster.startScheduler();
      await cluster.create(
        podManifest("by-selector", { nodeSelector: { "kubevirt.io/schedulable": "true" } }),
        podManifest("by-extended-resource", {}, { "devices.kubevirt.io/kvm": "1" }),
        podManifest("by-affinity-and-toleration", {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: "accelerator", operator: "In", values: ["gpu"] }] },
                ],
              },
            },
          },
          tolerations: [{ key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" }],
        }),
        podManifest("by-cpu", {}, { cpu: "1500m" }),
      );
      assert.equal(await boundNode(cluster, "by-selector"), "kvm-0");
      assert.equal(await boundNode(cluster, "by-extended-resource"), "kvm-0");
      assert.equal(await boundNode(cluster, "by-affinity-and-toleration"), "gpu-0");
      // The gpu node is tainted; the kvm node is busier: least allocated picks the plain node.
      assert.equal(await boundNode(cluster, "by-cpu"), "plain-0");
      const scheduled = await cluster.kubectlOut([
        "get",
        "pod",
        "by-cpu",
        "-o",
        'jsonpath={.status.conditions[?(@.type=="PodScheduled")].status}',
      ]);
      assert.equal(scheduled, "True");
    } finally {
      await cluster.close();
    }
  });

  test("an unschedulable pod says why in kubectl describe, and is bound once a node fits", async () => {
    const cluster = await startTestCluster([{ count: 2, namePrefix: "small-", capacity: small }]);
    try {
      await cluster.startScheduler();
      await cluster.create(
        podManifest("too-big", {}, { cpu: "3" }),
        podManifest("picky", { nodeSelector: { disk: "ssd" } }),
      );
      const message =
        "0/2 nodes are available: 2 Insufficient cpu. " +
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
      const described = await eventually("a FailedScheduling event", async () => {
        const text = await cluster.kubectlOut(["describe", "pod", "too-big"]);
        return text.includes("FailedScheduling") ? text : undefined;
      });
      assert.match(described, /PodScheduled\s+False/);
      assert.ok(described.includes(message), described);
      assert.ok(described.includes("default-scheduler"), "the event's source is default-scheduler");
      const reason = await cluster.kubectlOut([
        "get",
        "pod",
        "picky",
        "-o",
        'jsonpath={.status.conditions[?(@.type=="PodScheduled")].reason}: {.status.conditions[?(@.type=="PodScheduled")].message}',
      ]);
      assert.equal(
        reason,
        "Unschedulable: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. " +
          "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
      );
      await cluster.addNodes([
        {
          count: 1,
          namePrefix: "big-",
          capacity: { cpu: "4", memory: "8Gi", pods: "110" },
          labels: { disk: "ssd" },
        },
      ]);
      assert.equal(await boundNode(cluster, "too-big"), "big-0");
      assert.equal(await boundNode(cluster, "picky"), "big-0");
    } finally {
      await cluster.close();
    }
  });

  test("a restarted scheduler counts the pods already bound and binds the pending ones", async () => {
    const cluster = await startTestCluster([{ count: 1, namePrefix: "solo-", capacity: small }]);
    try {
      const first = await cluster.startScheduler();
      await cluster.create(podManifest("first", {}, { cpu: "600m" }));
      assert.equal(await boundNode(cluster, "first"), "solo-0");
      await first.stop();
      await cluster.create(
        podManifest("second", {}, { cpu: "600m" }),
        podManifest("third", {}, { cpu: "300m" }),
      );
      await cluster.startScheduler();
      assert.equal(await boundNode(cluster, "third"), "solo-0");
      const message = await eventually("second reported unschedulable", async () => {
        const text = await cluster.kubectlOut([
          "get",
          "pod",
          "second",
          "-o",
          'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}',
        ]);
        return text || undefined;
      });
      assert.match(message, /^0\/1 nodes are available: 1 Insufficient cpu\./);
      assert.equal(await cluster.nodeOf("first"), "solo-0");
      // A pod that finished frees its node, and that wakes the waiting pod.
      await cluster.kubectlOut([
        "patch",
        "pod",
        "first",
        "--subresource=status",
        "--type=merge",
        "-p",
        '{"status":{"phase":"Succeeded"}}',
      ]);
      assert.equal(await boundNode(cluster, "second"), "solo-0");
    } finally {
      await cluster.close();
    }
  });
});
