import { execFileSync } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { KubeClient, type ResourceClient } from "../../../runtime/index.js";
import {
  eventually,
  startTestApiServer,
  type TestApiServer,
} from "../../../test/harness/api-server-fixture.js";
import type { PodLogRequest, PodLogSource } from "../../apiserver/pod-logs.js";
import type { ImageProgram } from "../containers/image-map.js";
import { type Node, nodeKind, type Pod, podKind } from "../kinds.js";
import { type NodeAgent, type NodeAgentOptions, startNodeAgent } from "../node-agent.js";
import { isContainerWrapper } from "../process/container-process.js";
import { findProcesses } from "../process/proc-stat.js";

/** The compiled test HTTP server (test/programs/http-test-server.ts). */
export const httpTestServer = fileURLToPath(
  new URL("../../../test/programs/http-test-server.js", import.meta.url),
);

export const testImages: Record<string, ImageProgram> = {
  "test/http-server": { command: [process.execPath, httpTestServer] },
  "test/sleep": { command: ["sleep"], args: ["infinity"] },
  "test/sh": { command: ["/bin/sh", "-c"], args: ["echo hello"] },
  "virt-launcher": { command: ["sleep", "infinity"] },
};

export interface AgentTestClusterOptions {
  restartBackOffMs?: number;
  imagePullBackOffMs?: number;
  simulatedNodes?: string[];
  mode?: "auto" | "netns" | "loopback";
  /** Start no agent (tests that run it as a child process). */
  withoutAgent?: boolean;
}

/**
 * A dev API server, a Node object for the agent, an image map of test programs, and a node agent
 * on a bridge and pod CIDR of its own, so test files running at once never meet.
 */
export interface AgentTestCluster {
  api: TestApiServer;
  /** The agent the cluster stops on close (and whose logs the API server serves). */
  agent: NodeAgent | undefined;
  /** Starts an agent in this process with the cluster's options (after a test ran it elsewhere). */
  startAgent(): Promise<NodeAgent>;
  nodeName: string;
  dataDir: string;
  imageMapPath: string;
  agentOptions: NodeAgentOptions;
  pods: ResourceClient<Pod>;
  createPod(name: string, spec: Pod["spec"], labels?: Record<string, string>): Promise<Pod>;
  getPod(name: string): Promise<Pod | undefined>;
  waitForPod(name: string, what: string, check: (pod: Pod) => boolean, timeoutMs?: number): Promise<Pod>;
  close(): Promise<void>;
}

const quietLog = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/** Late-bound log source: the API server starts before the agent that serves its logs. */
class DeferredLogSource implements PodLogSource {
  target: PodLogSource | undefined;
  open(request: PodLogRequest): Promise<Readable | undefined> {
    return this.target ? this.target.open(request) : Promise.resolve(undefined);
  }
}

export async function startAgentTestCluster(
  options: AgentTestClusterOptions = {},
): Promise<AgentTestCluster> {
  const suffix = randomBytes(3).toString("hex");
  const logs = new DeferredLogSource();
  const bridgeName = `kvt${suffix}`;
  const cidr = `10.${randomInt(200, 250)}.${randomInt(0, 256)}.0/24`;
  const hostIP = cidr.replace(/0\/24$/, "1");
  const api = await startTestApiServer({ podLogs: logs, servingIps: [hostIP] });
  const dataDir = mkdtempSync(join(tmpdir(), "kubevirt-ts-node-agent-"));
  const imageMapPath = join(dataDir, "images.json");
  writeFileSync(imageMapPath, JSON.stringify({ images: testImages }));
  const nodeName = `node-${suffix}`;
  const client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "node-agent-test" });
  await client
    .resource(nodeKind)
    .create({ apiVersion: "v1", kind: "Node", metadata: { name: nodeName } } as Node);
  for (const simulated of options.simulatedNodes ?? []) {
    await client
      .resource(nodeKind)
      .create({ apiVersion: "v1", kind: "Node", metadata: { name: simulated } } as Node);
  }
  const agentOptions: NodeAgentOptions = {
    kubeConfig: api.kubeConfig(),
    nodeName,
    dataDir: join(dataDir, "agent"),
    imageMapPath,
    podNetwork: { bridgeName, cidr, mode: options.mode ?? "auto" },
    apiServer: {
      host: "127.0.0.1",
      port: Number(new URL(api.server.url).port),
      caCertPem: api.server.caCertPem,
    },
    apiForwarderPort: 0,
    simulatedNodes: options.simulatedNodes ?? [],
    log: quietLog,
    adoptedPollMs: 100,
    ...(options.restartBackOffMs ? { restartBackOff: { initialMs: options.restartBackOffMs } } : {}),
    ...(options.imagePullBackOffMs ? { imagePullBackOff: { initialMs: options.imagePullBackOffMs } } : {}),
  };
  const startAgent = async (): Promise<NodeAgent> => {
    const agent = await startNodeAgent(agentOptions);
    logs.target = agent.logs;
    cluster.agent = agent;
    await agent.adopted;
    return agent;
  };
  const pods = client.resource(podKind);
  const getPod = async (name: string): Promise<Pod | undefined> => {
    try {
      return await pods.get({ namespace: "default", name });
    } catch {
      return undefined;
    }
  };
  const cluster: AgentTestCluster = {
    api,
    agent: undefined,
    startAgent,
    nodeName,
    dataDir,
    imageMapPath,
    agentOptions,
    pods,
    createPod: (name, spec, labels) =>
      pods.create({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace: "default", ...(labels ? { labels } : {}) },
        spec: { nodeName, terminationGracePeriodSeconds: 5, ...spec } as Pod["spec"],
      }),
    getPod,
    waitForPod: (name, what, check, timeoutMs) =>
      eventually(
        `pod ${name}: ${what}`,
        async () => {
          const pod = await getPod(name);
          return pod && check(pod) ? pod : undefined;
        },
        timeoutMs,
      ),
    async close() {
      let failure: unknown;
      try {
        await deleteAllPods(pods, getPod);
      } catch (error) {
        failure = error;
      }
      await cluster.agent?.stop({ stopPods: true, maxGraceMs: 1000 });
      client.close();
      await api.close();
      const leftovers = leftoversOf(agentOptions);
      rmSync(dataDir, { recursive: true, force: true });
      if (failure) throw failure;
      if (leftovers.length > 0) throw new Error(`the node agent left behind: ${leftovers.join(", ")}`);
    },
  };
  if (!options.withoutAgent) await startAgent();
  return cluster;
}

/** Deletes every pod and waits until the agent has stopped them and removed the objects. */
async function deleteAllPods(
  pods: ResourceClient<Pod>,
  getPod: (name: string) => Promise<Pod | undefined>,
): Promise<void> {
  const { items } = await pods.list({ namespace: "default" });
  await Promise.all(
    items.map((pod) =>
      pods.delete({ namespace: "default", name: pod.metadata?.name ?? "" }).catch(() => undefined),
    ),
  );
  for (const pod of items) {
    await eventually(
      `pod ${pod.metadata?.name} gone`,
      async () => ((await getPod(pod.metadata?.name ?? "")) ? undefined : true),
      15_000,
    );
  }
}

/** Network namespaces, the bridge and container processes still there after the agent stopped. */
export function leftoversOf(options: NodeAgentOptions): string[] {
  const bridge = options.podNetwork.bridgeName;
  const found = findProcesses((argv) => isContainerWrapper(argv, join(options.dataDir, "pods"))).map(
    (pid) => `process ${pid}`,
  );
  if (process.getuid?.() !== 0) return found;
  const namespaces = execFileSync("ip", ["netns", "list"], { encoding: "utf8" });
  for (const line of namespaces.split("\n")) if (line.startsWith(`${bridge}-`)) found.push(`netns ${line}`);
  const links = execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" });
  if (links.includes(` ${bridge}:`)) found.push(`bridge ${bridge}`);
  return found;
}

/** The text of a log stream. */
export async function readAll(stream: Readable | undefined): Promise<string> {
  if (!stream) throw new Error("no log");
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString();
}

export function logRequest(pod: Pod, container: string, extra: Partial<PodLogRequest> = {}): PodLogRequest {
  return {
    namespace: pod.metadata?.namespace ?? "default",
    pod: pod.metadata?.name ?? "",
    podUid: pod.metadata?.uid ?? "",
    container,
    follow: false,
    previous: false,
    timestamps: false,
    ...extra,
  };
}
