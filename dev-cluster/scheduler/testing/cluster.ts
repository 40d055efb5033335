/** A dev API server with simulated nodes and the scheduler, for the scheduler's end-to-end tests. */
import { pino } from "pino";
import {
  eventually,
  startTestApiServer,
  type TestApiServer,
} from "../../../test/harness/api-server-fixture.js";
import { type RunningNodes, type SimulatedNodesOptions, startNodes } from "../../nodes/index.js";
import { type RunningScheduler, type SchedulerOptions, startScheduler } from "../scheduler.js";

export const quietLog = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

export interface TestCluster {
  api: TestApiServer;
  scheduler: RunningScheduler | undefined;
  nodeAgents: RunningNodes[];
  /** `options`: the scheduler's timings (kubeConfig and log are the cluster's). */
  startScheduler(options?: Partial<SchedulerOptions>): Promise<RunningScheduler>;
  addNodes(groups: SimulatedNodesOptions[]): Promise<void>;
  /** `kubectl create` of these objects; fails the test when kubectl does. */
  create(...objects: object[]): Promise<void>;
  kubectlOut(args: string[]): Promise<string>;
  nodeOf(pod: string): Promise<string>;
  close(): Promise<void>;
}

export async function startTestCluster(groups: SimulatedNodesOptions[]): Promise<TestCluster> {
  const api = await startTestApiServer();
  const cluster: TestCluster = {
    api,
    scheduler: undefined,
    nodeAgents: [],
    async startScheduler(options = {}) {
      cluster.scheduler = await startScheduler({ ...options, kubeConfig: api.kubeConfig(), log: quietLog });
      return cluster.scheduler;
    },
    async addNodes(more) {
      const agent = await startNodes({
        kubeConfig: api.kubeConfig(),
        log: quietLog,
        localNode: false,
        simulated: more,
      });
      cluster.nodeAgents.push(agent);
      await eventually(`nodes ${agent.nodeNames.join(", ")} Ready`, async () => {
        const ready = await cluster.kubectlOut([
          "get",
          "nodes",
          "-o",
          'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}',
        ]);
        return agent.nodeNames.every((name) => ready.includes(`${name}=True`)) ? true : undefined;
      });
    },
    async create(...objects) {
      // A stream of objects: a v1 List would make kubectl look for /openapi/v2, which the server lacks.
      const input = objects.map((object) => JSON.stringify(object)).join("\n");
      const result = await api.kubectl(["create", "-f", "-"], { input });
      if (result.code !== 0) throw new Error(`kubectl create failed: ${result.stderr}`);
    },
    async kubectlOut(args) {
      const result = await api.kubectl(args);
      if (result.code !== 0) throw new Error(`kubectl ${args.join(" ")} failed: ${result.stderr}`);
      return result.stdout;
    },
    async nodeOf(pod) {
      return cluster.kubectlOut(["get", "pod", pod, "-o", "jsonpath={.spec.nodeName}"]);
    },
    async close() {
      await cluster.scheduler?.stop();
      await Promise.all(cluster.nodeAgents.map((agent) => agent.stop()));
      await api.close();
    },
  };
  if (groups.length > 0) await cluster.addNodes(groups);
  return cluster;
}

export function podManifest(
  name: string,
  spec: Record<string, unknown> = {},
  requests?: Record<string, string>,
) {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default" },
    spec: {
      containers: [{ name: "main", image: "pause", ...(requests ? { resources: { requests } } : {}) }],
      ...spec,
    },
  };
}

/** Polls until the pod has a node, and returns it. */
export function boundNode(cluster: TestCluster, pod: string): Promise<string> {
  return eventually(`pod ${pod} bound`, async () => (await cluster.nodeOf(pod)) || undefined);
}
