import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pino } from "pino";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { startNodeLifecycle, startNodes } from "./index.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

async function kubectlJson<T>(api: TestApiServer, args: string[]): Promise<T> {
  const result = await api.kubectl([...args, "-o", "json"]);
  if (result.code !== 0) throw new Error(`kubectl ${args.join(" ")}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

interface NodeJson {
  metadata: {
    name: string;
    uid: string;
    labels: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: { taints?: { key: string; effect: string }[] };
  status: {
    capacity: Record<string, string>;
    allocatable: Record<string, string>;
    conditions: { type: string; status: string; reason: string; lastHeartbeatTime: string }[];
  };
}

function readyOf(node: NodeJson): string | undefined {
  return node.status.conditions?.find((condition) => condition.type === "Ready")?.status;
}

async function readyStatuses(api: TestApiServer): Promise<string> {
  const result = await api.kubectl(["get", "nodes", "--no-headers"]);
  return result.stdout;
}

describe("nodes against the dev API server", () => {
  test("registers the local and simulated nodes Ready, with kubelet's labels, capacity and leases", async () => {
    const api = await startTestApiServer();
    const nodes = await startNodes({
      kubeConfig: api.kubeConfig(),
      log,
      localNode: { name: "dev-node" },
      simulated: { count: 2 },
      leaseRenewIntervalMs: 200,
    });
    try {
      assert.deepEqual(nodes.nodeNames, ["dev-node", "sim-node-0", "sim-node-1"]);
      const table = await eventually("three Ready nodes", async () => {
        const result = await api.kubectl(["get", "nodes"]);
        return (result.stdout.match(/ Ready /g) ?? []).length === 3 ? result.stdout : undefined;
      });
      assert.match(table, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
      assert.match(table, /\ndev-node\s+Ready\s+<none>\s+\S+\s+v1\.32\.0\n/);
      assert.match(table, /\nsim-node-1\s+Ready\s+<none>\s+\S+\s+v1\.32\.0\n/);
      const local = await kubectlJson<NodeJson>(api, ["get", "node", "dev-node"]);
      assert.equal(local.metadata.labels["kubernetes.io/hostname"], "dev-node");
      assert.equal(local.metadata.labels["kubernetes.io/os"], "linux");
      assert.match(local.status.capacity.memory ?? "", /^\d+Ki$/);
      assert.equal(local.status.capacity.pods, "110");
      assert.match(local.status.capacity["ephemeral-storage"] ?? "", /^\d+Ki$/);
      const simulated = await kubectlJson<NodeJson>(api, ["get", "node", "sim-node-0"]);
      assert.equal(simulated.metadata.annotations?.["kwok.x-k8s.io/node"], "fake");
      assert.equal(simulated.status.allocatable.cpu, "32");
      const lease = async () =>
        kubectlJson<{
          metadata: { ownerReferences?: { uid: string }[] };
          spec: { holderIdentity: string; renewTime: string };
        }>(api, ["get", "lease", "-n", "kube-node-lease", "sim-node-0"]);
      const first = await eventually("the lease owned by its node", async () => {
        const current = await lease();
        return current.metadata.ownerReferences?.[0]?.uid === simulated.metadata.uid ? current : undefined;
      });
      assert.equal(first.spec.holderIdentity, "sim-node-0");
      await eventually("the lease renewed", async () =>
        (await lease()).spec.renewTime !== first.spec.renewTime ? true : undefined,
      );
    } finally {
      await nodes.stop();
      await api.close();
    }
  });

  test("a restarted agent adopts its nodes and keeps resources others advertise", async () => {
    const api = await startTestApiServer();
    const options = {
      kubeConfig: api.kubeConfig(),
      log,
      localNode: { name: "dev-node" },
      statusReportIntervalMs: 1000,
    } as const;
    let nodes = await startNodes(options);
    try {
      const before = await eventually("dev-node Ready", async () => {
        const node = await kubectlJson<NodeJson>(api, ["get", "node", "dev-node"]).catch(() => undefined);
        return node && readyOf(node) === "True" ? node : undefined;
      });
      const advertise = {
        status: {
          capacity: { "devices.kubevirt.io/kvm": "1k" },
          allocatable: { "devices.kubevirt.io/kvm": "1k" },
        },
      };
      const patched = await api.kubectl([
        "patch",
        "node",
        "dev-node",
        "--subresource=status",
        "--type=merge",
        "-p",
        JSON.stringify(advertise),
      ]);
      assert.equal(patched.code, 0, patched.stderr);
      await nodes.stop();
      nodes = await startNodes(options);
      const heartbeat = before.status.conditions.find(
        (condition) => condition.type === "Ready",
      )?.lastHeartbeatTime;
      const after = await eventually(
        "a later heartbeat",
        async () => {
          const node = await kubectlJson<NodeJson>(api, ["get", "node", "dev-node"]);
          const current = node.status.conditions.find(
            (condition) => condition.type === "Ready",
          )?.lastHeartbeatTime;
          return current !== heartbeat ? node : undefined;
        },
        10_000,
      );
      assert.equal(after.metadata.uid, before.metadata.uid, "the same node, adopted");
      assert.equal(after.status.capacity["devices.kubevirt.io/kvm"], "1k");
      assert.equal(after.status.allocatable["devices.kubevirt.io/kvm"], "1k");
      assert.equal((await readyStatuses(api)).trim().split("\n").length, 1);
    } finally {
      await nodes.stop();
      await api.close();
    }
  });

  test("a node whose heartbeats stop becomes Unknown and tainted, and recovers when they resume", async () => {
    const api = await startTestApiServer();
    const agentOptions = {
      kubeConfig: api.kubeConfig(),
      log,
      localNode: false,
      simulated: { count: 1 },
      leaseRenewIntervalMs: 200,
    } as const;
    let nodes = await startNodes(agentOptions);
    const lifecycle = await startNodeLifecycle({ kubeConfig: api.kubeConfig(), log, gracePeriodMs: 1500 });
    const node = () => kubectlJson<NodeJson>(api, ["get", "node", "sim-node-0"]);
    try {
      await eventually("Ready", async () => (readyOf(await node()) === "True" ? true : undefined));
      await nodes.stop();
      const silent = await eventually(
        "Unknown and tainted",
        async () => {
          const current = await node();
          const tainted = current.spec.taints?.some(
            (taint) => taint.key === "node.kubernetes.io/unreachable" && taint.effect === "NoSchedule",
          );
          return readyOf(current) === "Unknown" && tainted ? current : undefined;
        },
        10_000,
      );
      assert.equal(
        silent.status.conditions.find((condition) => condition.type === "Ready")?.reason,
        "NodeStatusUnknown",
      );
      assert.match(await readyStatuses(api), /sim-node-0\s+NotReady/);
      nodes = await startNodes(agentOptions);
      await eventually(
        "Ready and untainted again",
        async () => {
          const current = await node();
          return readyOf(current) === "True" && (current.spec.taints ?? []).length === 0 ? true : undefined;
        },
        10_000,
      );
    } finally {
      await lifecycle.stop();
      await nodes.stop();
      await api.close();
    }
  });
});
