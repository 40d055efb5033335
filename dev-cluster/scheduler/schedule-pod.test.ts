import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Frozen } from "../../runtime/index.js";
import type { Node, Pod } from "./kinds.js";
import { podRequest } from "./resources/pod-requests.js";
import { type Placement, schedulePod } from "./schedule-pod.js";
import { SchedulingCache } from "./scheduling-cache.js";
import { boundPod, testNode, testPod } from "./testing/objects.js";

function place(pod: Frozen<Pod>, nodes: Frozen<Node>[], running: Frozen<Pod>[] = []): Placement {
  const cache = new SchedulingCache();
  for (const node of nodes) cache.setNode(node);
  for (const other of running) cache.observePod(other);
  return schedulePod(pod, podRequest(pod), cache.nodeInfos());
}

function nodeOf(placement: Placement): string {
  assert.equal(placement.kind, "fits", placement.kind === "unschedulable" ? placement.message : "");
  return placement.kind === "fits" ? placement.nodeName : "";
}

function messageOf(placement: Placement): string {
  assert.equal(placement.kind, "unschedulable");
  return placement.kind === "unschedulable" ? placement.message : "";
}

const preemptionNotHelpful = (n: number) =>
  `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;

describe("placement filters", () => {
  const zoned = [
    testNode("a", { labels: { zone: "x", gen: "3" } }),
    testNode("b", { labels: { zone: "y", gen: "5" } }),
  ];

  test("nodeSelector picks the labelled node", () => {
    assert.equal(nodeOf(place(testPod("p", { nodeSelector: { zone: "y" } }), zoned)), "b");
    assert.equal(
      messageOf(place(testPod("p", { nodeSelector: { zone: "z" } }), zoned)),
      `0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. ${preemptionNotHelpful(2)}`,
    );
  });

  const affinityCases: [string, Record<string, unknown>, string | undefined][] = [
    ["In", { key: "zone", operator: "In", values: ["y", "q"] }, "b"],
    ["NotIn", { key: "zone", operator: "NotIn", values: ["x"] }, "b"],
    ["Exists", { key: "gen", operator: "Exists" }, "a"],
    ["DoesNotExist", { key: "gpu", operator: "DoesNotExist" }, "a"],
    ["Gt", { key: "gen", operator: "Gt", values: ["4"] }, "b"],
    ["Lt", { key: "gen", operator: "Lt", values: ["4"] }, "a"],
    ["Gt with a non-number matches nothing", { key: "gen", operator: "Gt", values: ["four"] }, undefined],
  ];
  for (const [name, expression, expected] of affinityCases) {
    test(`required node affinity: ${name}`, () => {
      const pod = testPod("p", {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [expression as never] }],
            },
          },
        },
      });
      const placement = place(pod, zoned);
      if (expected) assert.equal(nodeOf(placement), expected);
      else assert.match(messageOf(placement), /2 node\(s\) didn't match Pod's node affinity\/selector/);
    });
  }

  test("terms are ORed, and matchFields pins node names (a DaemonSet pod's affinity)", () => {
    const terms = (name: string) => ({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: "zone", operator: "In" as const, values: ["nowhere"] }] },
              { matchFields: [{ key: "metadata.name", operator: "In" as const, values: [name] }] },
            ],
          },
        },
      },
    });
    assert.equal(nodeOf(place(testPod("p", terms("b")), zoned)), "b");
    const pinned = testPod("p", {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["a"] }] }],
          },
        },
      },
    });
    const full = testNode("a", { allocatable: { cpu: "1", memory: "1Gi", pods: "1" } });
    assert.equal(
      messageOf(place(pinned, [full, testNode("b")], [boundPod(testPod("other"), "a")])),
      "0/2 nodes are available: 1 Too many pods, 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
        "preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, " +
        "1 Preemption is not helpful for scheduling.",
    );
  });

  test("taints: NoSchedule and NoExecute repel, PreferNoSchedule does not, tolerations let through", () => {
    const nodes = [
      testNode("a", { taints: [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }] }),
      testNode("b", { taints: [{ key: "maintenance", effect: "NoExecute" }] }),
    ];
    assert.equal(
      messageOf(place(testPod("p"), nodes)),
      "0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, " +
        `1 node(s) had untolerated taint {maintenance: }. ${preemptionNotHelpful(2)}`,
    );
    const equal = testPod("p", { tolerations: [{ key: "dedicated", operator: "Equal", value: "gpu" }] });
    assert.equal(nodeOf(place(equal, nodes)), "a");
    const exists = testPod("p", {
      tolerations: [{ key: "maintenance", operator: "Exists", effect: "NoExecute" }],
    });
    assert.equal(nodeOf(place(exists, nodes)), "b");
    const wrongValue = testPod("p", { tolerations: [{ key: "dedicated", operator: "Equal", value: "cpu" }] });
    assert.equal(place(wrongValue, nodes).kind, "unschedulable");
    const preferred = [testNode("c", { taints: [{ key: "soft", effect: "PreferNoSchedule" }] })];
    assert.equal(nodeOf(place(testPod("p"), preferred)), "c");
  });

  test("cordoned nodes take only pods tolerating node.kubernetes.io/unschedulable", () => {
    const nodes = [testNode("a", { unschedulable: true })];
    assert.equal(
      messageOf(place(testPod("p"), nodes)),
      `0/1 nodes are available: 1 node(s) were unschedulable. ${preemptionNotHelpful(1)}`,
    );
    const tolerant = testPod("p", {
      tolerations: [{ key: "node.kubernetes.io/unschedulable", operator: "Exists" }],
    });
    assert.equal(nodeOf(place(tolerant, nodes)), "a");
  });

  test("nodes that are not Ready count as tainted not-ready or unreachable", () => {
    const nodes = [
      testNode("a", { ready: "False" }),
      testNode("b", { ready: "Unknown" }),
      testNode("c", { ready: "missing" }),
    ];
    assert.equal(
      messageOf(place(testPod("p"), nodes)),
      "0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, " +
        `2 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. ${preemptionNotHelpful(3)}`,
    );
  });

  test("resources: requests against allocatable minus the bound, non-terminal pods", () => {
    const nodes = [
      testNode("a", { allocatable: { cpu: "2", memory: "4Gi", pods: "110" } }),
      testNode("b", {
        allocatable: { cpu: "2", memory: "4Gi", pods: "110", "devices.kubevirt.io/kvm": "1k" },
      }),
    ];
    const vm = testPod("vm", {}, { cpu: "1", memory: "1Gi", "devices.kubevirt.io/kvm": "1" });
    assert.equal(nodeOf(place(vm, nodes)), "b");
    const running = [
      boundPod(testPod("r1", {}, { cpu: "1500m" }), "b"),
      boundPod(testPod("done", {}, { cpu: "2" }), "a", "Succeeded"),
    ];
    assert.equal(
      messageOf(place(vm, nodes, running)),
      "0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient devices.kubevirt.io/kvm. preemption: 0/2 nodes " +
        "are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
    );
    const tooBig = testPod("big", {}, { memory: "5Gi" });
    assert.match(
      messageOf(place(tooBig, nodes)),
      /2 Insufficient memory\. preemption: 0\/2 nodes are available: 2 Preemption is not helpful/,
    );
  });

  test("least allocated: the emptier node wins, ties go to the first by name", () => {
    const nodes = [testNode("a"), testNode("b")];
    assert.equal(nodeOf(place(testPod("p", {}, { cpu: "1" }), nodes)), "a");
    const busy = [boundPod(testPod("r", {}, { cpu: "2", memory: "2Gi" }), "a")];
    assert.equal(nodeOf(place(testPod("p", {}, { cpu: "1" }), nodes, busy)), "b");
  });

  test("no nodes at all", () => {
    assert.equal(messageOf(place(testPod("p"), [])), "no nodes available to schedule pods");
  });
});

describe("the scheduling cache", () => {
  test("an assumed pod counts until the informer shows it bound, and a failed binding is forgotten", () => {
    const cache = new SchedulingCache();
    cache.setNode(testNode("a", { allocatable: { cpu: "1", memory: "1Gi", pods: "110" } }));
    const first = testPod("first", {}, { cpu: "800m" });
    const second = testPod("second", {}, { cpu: "800m" });
    cache.assume(first, podRequest(first), "a");
    assert.equal(cache.isAssumed(first), true);
    cache.observePod(first); // a stale, unbound copy from the informer keeps the assumption
    assert.equal(schedulePod(second, podRequest(second), cache.nodeInfos()).kind, "unschedulable");
    cache.observePod(boundPod(first, "a"));
    assert.equal(cache.isAssumed(first), false);
    assert.equal(schedulePod(second, podRequest(second), cache.nodeInfos()).kind, "unschedulable");
    cache.removePod(boundPod(first, "a"));
    assert.equal(schedulePod(second, podRequest(second), cache.nodeInfos()).kind, "fits");
    cache.assume(second, podRequest(second), "a");
    cache.forget(second);
    assert.equal(cache.nodeInfos()[0]?.usage.requested.milliCpu, 0);
  });
});
