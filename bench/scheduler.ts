/**
 * `npm run bench -- scheduler`: the dev cluster's scheduler placing a backlog of 1,000 pending
 * pods over 100 simulated nodes. The API server runs as a separate process (SQLite storage, as
 * `dev-cluster up` runs it); nodes, scheduler and the observer run here.
 * - pods bound per second, from the scheduler's caches being synced to the last binding seen;
 * - time from starting the scheduler until every pod is bound;
 * - time until every pod is Running: the bench plays the node agent's part for simulated nodes
 *   (kwok-style: phase Running and Ready at once), concurrently with the bindings;
 * - CPU seconds spent by the API server and by this process meanwhile: the machine has two
 *   cores, so the rates depend on what else runs; the CPU figures much less.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";
import type { IPod } from "kubernetes-models/v1/Pod";
import { pino } from "pino";
import { startNodes } from "../dev-cluster/nodes/index.js";
import { startScheduler } from "../dev-cluster/scheduler/index.js";
import {
  type Frozen,
  KubeClient,
  Manager,
  mutableCopy,
  nodeKind,
  podKind,
  wireTime,
} from "../runtime/index.js";
import { percentile, reportBenchmark } from "./bench-report.js";

const PODS = 1_000;
const NODES = 100;
const CREATE_CONCURRENCY = 8;
const RUNNING_WORKERS = 8;

const log = pino({ level: "warn" });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Only the API server, so that nothing else schedules or runs pods. */
async function startApiServer(dataDir: string): Promise<{ child: ChildProcess; kubeConfig: KubeConfig }> {
  const module = join(
    dirname(fileURLToPath(import.meta.url)),
    "..",
    "dev-cluster",
    "apiserver",
    "dev-api-server.js",
  );
  const kubeconfigPath = join(dataDir, "kubeconfig");
  const script = `
    import { pino } from "pino";
    import { startDevApiServer } from ${JSON.stringify(module)};
    const server = await startDevApiServer({ dataDir: ${JSON.stringify(dataDir)}, port: 0,
      kubeconfigPath: ${JSON.stringify(kubeconfigPath)}, log: pino({ level: "warn" }) });
    process.once("SIGTERM", () => server.close().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: join(dirname(fileURLToPath(import.meta.url)), "..", ".."),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  while (!existsSync(kubeconfigPath)) {
    if (Date.now() > deadline) throw new Error("the API server did not write its kubeconfig within 30 s");
    await pause(50);
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  return { child, kubeConfig };
}

function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function benchPod(index: number): IPod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: `bench-${index}`, namespace: "default", labels: { app: "bench" } },
    spec: {
      containers: [
        {
          name: "compute",
          image: "virt-launcher",
          resources: { requests: { cpu: "100m", memory: "256Mi", "devices.kubevirt.io/kvm": "1" } },
        },
      ],
    },
  };
}

async function createPods(client: KubeClient): Promise<void> {
  const pods = client.resource(podKind);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < PODS) await pods.create(benchPod(next++));
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
}

/** A pod on a simulated node as kwok reports it: Running and Ready, without a process. */
function running(pod: Frozen<IPod>, at: string): IPod {
  const copy = mutableCopy<IPod>(pod);
  const condition = (type: string) => ({ type, status: "True", lastTransitionTime: at });
  copy.status = {
    ...copy.status,
    phase: "Running",
    startTime: at,
    hostIP: "192.0.2.1",
    conditions: ["PodScheduled", "Initialized", "ContainersReady", "Ready"].map(condition),
    containerStatuses: [
      {
        name: "compute",
        image: "virt-launcher",
        imageID: "",
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: at } },
      },
    ],
  };
  return copy;
}

/** Watches the pods: when each was first seen bound and Running; marks bound ones Running. */
function observe(kubeConfig: KubeConfig) {
  const manager = new Manager({ name: "bench-observer", kubeConfig, log });
  const pods = manager.informer(podKind);
  const boundAt = new Map<string, number>();
  const runningAt = new Map<string, number>();
  const record = (pod: Frozen<IPod>): void => {
    const name = pod.metadata?.name ?? "";
    if (pod.spec?.nodeName && !boundAt.has(name)) boundAt.set(name, performance.now());
    if (pod.status?.phase === "Running" && !runningAt.has(name)) runningAt.set(name, performance.now());
  };
  pods.addEventHandler({ onAdd: record, onUpdate: (_old, pod) => record(pod) });
  const kwok = manager.controller({
    name: "simulated-kubelet",
    workers: RUNNING_WORKERS,
    reconcile: async ({ key }) => {
      const pod = pods.get(key);
      if (!pod?.spec?.nodeName || pod.status?.phase === "Running") return {};
      await manager.client.resource(podKind).updateStatus(running(pod, wireTime(Date.now())));
      return {};
    },
  });
  kwok.watch(pods);
  return { manager, boundAt, runningAt };
}

async function waitFor(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(10);
  }
}

async function waitForReadyNodes(client: KubeClient): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { items } = await client.resource(nodeKind).list();
    const ready = items.filter((node) =>
      node.status?.conditions?.some((condition) => condition.type === "Ready" && condition.status === "True"),
    );
    if (ready.length >= NODES) return;
    if (Date.now() > deadline) throw new Error(`only ${ready.length} of ${NODES} nodes became Ready`);
    await pause(100);
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-scheduler-"));
  const { child, kubeConfig } = await startApiServer(dataDir);
  const client = KubeClient.fromKubeConfig(kubeConfig, { fieldManager: "bench" });
  const capacity = { cpu: "32", memory: "256Gi", pods: "110", "devices.kubevirt.io/kvm": "1k" };
  const nodes = await startNodes({
    kubeConfig,
    log,
    localNode: false,
    simulated: { count: NODES, capacity },
  });
  const observer = observe(kubeConfig);
  try {
    await waitForReadyNodes(client);
    await createPods(client);
    await observer.manager.start();
    await observer.manager.cache.waitForSync();
    const cpuBefore = process.cpuUsage();
    const childBefore = cpuSecondsOf(child.pid ?? 0);
    const started = performance.now();
    const scheduler = await startScheduler({ kubeConfig, log });
    await scheduler.synced();
    const synced = performance.now();
    await waitFor("every pod bound", () => observer.boundAt.size === PODS, 120_000);
    const lastBound = Math.max(...observer.boundAt.values());
    await waitFor("every pod Running", () => observer.runningAt.size === PODS, 120_000);
    const lastRunning = Math.max(...observer.runningAt.values());
    const cpu = process.cpuUsage(cpuBefore);
    const apiServerCpu = cpuSecondsOf(child.pid ?? 0) - childBefore;
    const bindDelays = [...observer.boundAt.values()].map((at) => at - synced).sort((a, b) => a - b);
    await scheduler.stop();
    reportBenchmark("scheduler", {
      pods_bound_per_second: {
        value: PODS / ((lastBound - synced) / 1000),
        unit: `pods/s (${PODS} pods, ${NODES} nodes)`,
      },
      time_to_all_bound: { value: (lastBound - started) / 1000, unit: "s from starting the scheduler" },
      cache_sync: { value: (synced - started) / 1000, unit: "s (part of the above)" },
      bound_p50: { value: percentile(bindDelays, 50), unit: "ms after sync" },
      time_to_all_running: {
        value: (lastRunning - started) / 1000,
        unit: "s (bench marks simulated pods Running)",
      },
      api_server_cpu: { value: apiServerCpu, unit: "CPU s until all Running (bindings, statuses, events)" },
      bench_process_cpu: {
        value: (cpu.user + cpu.system) / 1e6,
        unit: "CPU s until all Running (scheduler, simulated kubelet, observer)",
      },
    });
  } finally {
    await observer.manager.stop();
    await nodes.stop();
    client.close();
    child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
