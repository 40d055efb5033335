import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DaemonSet, Node, Pod } from "../kinds.js";
import { controllerRevisionHashLabel, pinnedToNode, targetNodeOf } from "./daemon-pod.js";
import { planDaemonPods } from "./daemon-set-plan.js";
import { rollingUpdateDeletions } from "./daemon-set-rolling.js";
import { nodeVerdict } from "./node-eligibility.js";

const now = Date.parse("2024-01-01T01:00:00Z");

function node(
  name: string,
  extra: { labels?: Record<string, string>; taints?: NonNullable<Node["spec"]>["taints"] } = {},
): Node {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, labels: extra.labels ?? {} },
    spec: { ...(extra.taints ? { taints: extra.taints } : {}) },
  };
}

function daemonSet(
  spec: Partial<NonNullable<DaemonSet["spec"]>["template"]["spec"]> = {},
  maxUnavailable: number | string = 1,
): DaemonSet {
  return {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name: "ds", namespace: "ns", generation: 1 },
    spec: {
      selector: { matchLabels: { app: "ds" } },
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable } },
      template: { metadata: { labels: { app: "ds" } }, spec: { containers: [{ name: "c" }], ...spec } },
    },
  };
}

function pod(
  name: string,
  nodeName: string,
  hash: string,
  options: { ready?: boolean; phase?: "Running" | "Failed"; deleting?: boolean; bound?: boolean } = {},
): Pod {
  const base: NonNullable<Pod["spec"]> = { containers: [{ name: "c" }] };
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "ns",
      labels: { app: "ds", [controllerRevisionHashLabel]: hash },
      creationTimestamp: "2024-01-01T00:00:00Z",
      ...(options.deleting ? { deletionTimestamp: "2024-01-01T00:30:00Z" } : {}),
    },
    spec: options.bound === false ? pinnedToNode(base, nodeName) : { ...base, nodeName },
    status: {
      phase: options.phase ?? "Running",
      conditions: [
        {
          type: "Ready",
          status: options.ready === false ? "False" : "True",
          lastTransitionTime: "2024-01-01T00:00:00Z",
        },
      ],
    },
  };
}

const byNode = (...pods: Pod[]): Map<string, Pod[]> => {
  const map = new Map<string, Pod[]>();
  for (const p of pods) map.set(targetNodeOf(p) ?? "", [...(map.get(targetNodeOf(p) ?? "") ?? []), p]);
  return map;
};

describe("DaemonSet placement", () => {
  test("node selectors and taints decide; daemon tolerations cover node conditions; NoExecute evicts", () => {
    const tainted = node("t", { taints: [{ key: "dedicated", effect: "NoSchedule" }] });
    const notReady = node("nr", { taints: [{ key: "node.kubernetes.io/not-ready", effect: "NoExecute" }] });
    const evicting = node("ev", { taints: [{ key: "maintenance", effect: "NoExecute" }] });
    const ds = daemonSet({ nodeSelector: { role: "worker" } });
    const worker = (n: Node): Node => ({ ...n, metadata: { ...n.metadata, labels: { role: "worker" } } });
    assert.deepEqual(nodeVerdict(worker(node("w")), ds), { shouldRun: true, shouldContinueRunning: true });
    assert.deepEqual(nodeVerdict(node("other"), ds), { shouldRun: false, shouldContinueRunning: false });
    assert.deepEqual(nodeVerdict(worker(tainted), ds), { shouldRun: false, shouldContinueRunning: true });
    assert.deepEqual(nodeVerdict(worker(notReady), ds), { shouldRun: true, shouldContinueRunning: true });
    assert.deepEqual(nodeVerdict(worker(evicting), ds), { shouldRun: false, shouldContinueRunning: false });
  });

  test("a pod pinned to a node before binding counts as that node's", () => {
    assert.equal(targetNodeOf(pod("p", "n1", "h", { bound: false })), "n1");
    assert.equal(targetNodeOf(pod("p", "n2", "h")), "n2");
  });

  test("the plan creates where missing, keeps the oldest scheduled, waits for terminating pods, removes strays", () => {
    const nodes = [node("a"), node("b"), node("c"), node("d")];
    const plan = planDaemonPods(
      daemonSet(),
      nodes,
      byNode(
        pod("b-scheduled", "b", "h"),
        pod("b-pinned", "b", "h", { bound: false }),
        pod("c-deleting", "c", "h", { deleting: true }),
        pod("d-failed", "d", "h", { phase: "Failed" }),
        pod("gone-node", "z", "h"),
      ),
    );
    assert.deepEqual(plan.create, ["a"]);
    assert.deepEqual(plan.delete.map((p) => p.metadata?.name).sort(), ["b-pinned", "gone-node"]);
    assert.deepEqual(
      plan.failed.map(({ pod: p, node: n }) => `${p.metadata?.name}@${n}`),
      ["d-failed@d"],
    );
  });

  test("a rolling update replaces unavailable old pods at once and available ones within maxUnavailable", () => {
    const nodes = [node("a"), node("b"), node("c"), node("d")];
    const pods = byNode(
      pod("a", "a", "old"),
      pod("b", "b", "old"),
      pod("c", "c", "old", { ready: false }),
      pod("d", "d", "new"),
    );
    const deletions = rollingUpdateDeletions(daemonSet({}, 1), nodes, pods, "new", now);
    assert.deepEqual(
      deletions.map((p) => p.metadata?.name),
      ["c", "a"],
    );
    const waiting = byNode(
      pod("a", "a", "old"),
      pod("b", "b", "old"),
      pod("d", "d", "new", { ready: false }),
    );
    assert.deepEqual(
      rollingUpdateDeletions(daemonSet({}, 1), nodes, waiting, "new", now),
      [],
      "two nodes already unavailable",
    );
    const wide = rollingUpdateDeletions(
      daemonSet({}, "50%"),
      nodes,
      byNode(pod("a", "a", "old"), pod("b", "b", "old"), pod("c", "c", "old"), pod("d", "d", "old")),
      "new",
      now,
    );
    assert.equal(wide.length, 2);
  });
});
