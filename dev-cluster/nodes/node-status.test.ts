import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze, type Frozen, mutableCopy } from "../../runtime/index.js";
import type { Node } from "./kinds.js";
import type { MachineFacts } from "./machine.js";
import { localNodeDefinition, simulatedNodeDefinitions } from "./node-definition.js";
import { metadataPatch, reportedStatus, statusReportDue } from "./node-status.js";

const facts: MachineFacts = {
  hostname: "devbox",
  cpuCores: 8,
  memoryBytes: 24576000 * 1024,
  ephemeralStorageBytes: 100 * 1024 ** 3,
  internalIP: "192.0.2.10",
  kernelVersion: "6.1.0-test",
  osImage: "Debian GNU/Linux 12 (bookworm)",
  architecture: "amd64",
  machineID: "m",
  bootID: "b",
};
const t0 = Date.parse("2025-01-01T00:00:00Z");

function node(parts: Omit<Node, "apiVersion" | "kind">): Frozen<Node> {
  return deepFreeze<Node>({ apiVersion: "v1", kind: "Node", ...parts });
}

describe("node definitions", () => {
  test("the local node is sized from the machine, with kubelet's labels and eviction reserve", () => {
    const node = localNodeDefinition(facts);
    assert.equal(node.name, "devbox");
    assert.deepEqual(node.capacity, {
      cpu: "8",
      pods: "110",
      "hugepages-1Gi": "0",
      "hugepages-2Mi": "0",
      memory: "24576000Ki",
      "ephemeral-storage": "104857600Ki",
    });
    assert.equal(node.allocatable.memory, `${24576000 - 100 * 1024}Ki`);
    assert.equal(node.allocatable["ephemeral-storage"], String(Math.floor(100 * 1024 ** 3 * 0.9)));
    assert.equal(node.labels["kubernetes.io/hostname"], "devbox");
    assert.equal(node.labels["kubernetes.io/os"], "linux");
    assert.equal(node.labels["kubernetes.io/arch"], "amd64");
    assert.equal(
      Object.keys(node.labels).some((key) => key.startsWith("node-role.kubernetes.io/")),
      false,
      "a plain worker",
    );
    assert.deepEqual(node.addresses, [
      { type: "InternalIP", address: "192.0.2.10" },
      { type: "Hostname", address: "devbox" },
    ]);
    assert.equal(node.nodeInfo.kubeletVersion, "v1.32.0");
  });

  test("simulated nodes are numbered, marked as kwok marks them, and sized as configured", () => {
    const nodes = simulatedNodeDefinitions(facts, {
      count: 2,
      capacity: { cpu: "4", "devices.kubevirt.io/kvm": "1k" },
      labels: { rack: "r1" },
    });
    assert.deepEqual(
      nodes.map((node) => node.name),
      ["sim-node-0", "sim-node-1"],
    );
    assert.equal(nodes[0]?.capacity.cpu, "4");
    assert.equal(nodes[0]?.capacity.memory, "256Gi");
    assert.equal(nodes[0]?.allocatable["devices.kubevirt.io/kvm"], "1k");
    assert.equal(nodes[1]?.labels.rack, "r1");
    assert.equal(nodes[1]?.labels.type, "kwok");
    assert.equal(nodes[1]?.annotations["kwok.x-k8s.io/node"], "fake");
  });
});

describe("node status reports", () => {
  const definition = localNodeDefinition(facts);
  const reported = (base: Frozen<Node>, now: number) =>
    node({ metadata: { name: "devbox" }, status: reportedStatus(base, definition, now) });

  test("a report keeps what others added: extended resources and foreign conditions", () => {
    const existing = node({
      metadata: { name: "devbox" },
      status: {
        capacity: { "devices.kubevirt.io/kvm": "1k", cpu: "2" },
        allocatable: { "devices.kubevirt.io/kvm": "1k" },
        conditions: [{ type: "NetworkUnavailable", status: "False" }],
      },
    });
    const status = reportedStatus(existing, definition, t0);
    assert.equal(status.capacity?.["devices.kubevirt.io/kvm"], "1k");
    assert.equal(status.capacity?.cpu, "8");
    assert.equal(status.allocatable?.["devices.kubevirt.io/kvm"], "1k");
    assert.deepEqual(
      status.conditions?.map((condition) => `${condition.type}=${condition.status}`),
      [
        "NetworkUnavailable=False",
        "MemoryPressure=False",
        "DiskPressure=False",
        "PIDPressure=False",
        "Ready=True",
      ],
    );
  });

  test("the transition time moves only when a condition's status does", () => {
    const first = reported(node({ metadata: { name: "devbox" } }), t0);
    const second = reportedStatus(first, definition, t0 + 60_000);
    const ready = second.conditions?.find((condition) => condition.type === "Ready");
    assert.equal(ready?.lastTransitionTime, "2025-01-01T00:00:00Z");
    assert.equal(ready?.lastHeartbeatTime, "2025-01-01T00:01:00Z");
  });

  test("a report is due at the interval, or at once when something the agent owns is off", () => {
    const healthy = reported(node({ metadata: { name: "devbox" } }), t0);
    assert.deepEqual(statusReportDue(healthy, definition, t0 + 1000, 300_000), {
      due: false,
      nextInMs: 299_000,
    });
    assert.equal(statusReportDue(healthy, definition, t0 + 300_000, 300_000).due, true);
    const unknown = mutableCopy<Node>(healthy);
    for (const condition of unknown.status?.conditions ?? []) {
      if (condition.type === "Ready")
        Object.assign(condition, { status: "Unknown", reason: "NodeStatusUnknown" });
    }
    assert.equal(statusReportDue(unknown, definition, t0 + 1000, 300_000).due, true);
    const resized = mutableCopy<Node>(healthy);
    if (resized.status) resized.status.capacity = { cpu: "2" };
    assert.equal(statusReportDue(resized, definition, t0 + 1000, 300_000).due, true);
  });

  test("labels and annotations the agent owns are patched back, others left alone", () => {
    const labelled = node({
      metadata: { name: "devbox", labels: { "kubernetes.io/hostname": "devbox", mine: "yes" } },
    });
    const patch = metadataPatch(labelled, definition) as { metadata: { labels: Record<string, string> } };
    assert.equal(patch.metadata.labels["kubernetes.io/os"], "linux");
    assert.equal("mine" in patch.metadata.labels, false);
    assert.equal("kubernetes.io/hostname" in patch.metadata.labels, false);
    const complete = node({ metadata: { name: "devbox", labels: { ...definition.labels } } });
    assert.equal(metadataPatch(complete, definition), undefined);
  });
});
