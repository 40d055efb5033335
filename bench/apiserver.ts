/**
 * `npm run bench -- apiserver`: the dev-cluster API server as a separate process, measured from
 * outside over HTTPS, as clients see it.
 * - creates per second of small custom resources from 8 concurrent keep-alive clients;
 * - watch fan-out: events per second delivered to 50 watchers, and write-to-delivery latency;
 * - resident memory per 10,000 stored objects.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { percentile, reportBenchmark } from "./bench-report.js";

const CREATES = 5_000;
const CONCURRENCY = 8;
const WATCHERS = 50;
const WATCHED_WRITES = 500;
const MEMORY_OBJECTS = 10_000;

interface Endpoint {
  host: string;
  port: number;
  token: string;
  ca: string;
  agent: Agent;
}

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.bench.kubevirt.io" },
  spec: {
    group: "bench.kubevirt.io",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: { type: "object", properties: { size: { type: "integer" }, sent: { type: "number" } } },
            },
          },
        },
      },
    ],
  },
};

function call(
  endpoint: Endpoint,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: endpoint.host,
        port: endpoint.port,
        method,
        path,
        ca: endpoint.ca,
        agent: endpoint.agent,
        headers: {
          authorization: `Bearer ${endpoint.token}`,
          "content-type": "application/json",
          ...(payload ? { "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; endpoint: Endpoint }> {
  const main = join(dirname(fileURLToPath(import.meta.url)), "..", "dev-cluster", "main.js");
  const kubeconfig = join(dataDir, "kubeconfig");
  const child = spawn(
    process.execPath,
    [main, "up", "--data-dir", dataDir, "--port", "0", "--kubeconfig", kubeconfig, "--no-registry"],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const deadline = Date.now() + 30_000;
  while (!existsSync(kubeconfig)) {
    if (Date.now() > deadline) throw new Error("the dev cluster did not write its kubeconfig within 30 s");
    await new Promise((r) => setTimeout(r, 50));
  }
  const config = parseYaml(readFileSync(kubeconfig, "utf8")) as {
    clusters: { cluster: { server: string; "certificate-authority-data": string } }[];
    users: { user: { token: string } }[];
  };
  const cluster = config.clusters[0]?.cluster;
  const url = new URL(cluster?.server ?? "");
  return {
    child,
    endpoint: {
      host: url.hostname,
      port: Number(url.port),
      token: config.users[0]?.user.token ?? "",
      ca: Buffer.from(cluster?.["certificate-authority-data"] ?? "", "base64").toString(),
      agent: new Agent({ keepAlive: true, maxSockets: CONCURRENCY }),
    },
  };
}

const widgets = "/apis/bench.kubevirt.io/v1/namespaces/default/widgets";

async function createMany(endpoint: Endpoint, prefix: string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const res = await call(endpoint, "POST", widgets, {
        apiVersion: "bench.kubevirt.io/v1",
        kind: "Widget",
        metadata: { name: `${prefix}-${i}` },
        spec: { size: i },
      });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return Number(match?.[1] ?? 0) * 1024;
}

async function watchFanOut(
  endpoint: Endpoint,
): Promise<{ eventsPerSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  let delivered = 0;
  const expected = WATCHERS * WATCHED_WRITES;
  const watchAgent = new Agent({ keepAlive: false, maxSockets: WATCHERS + 1 });
  const { body } = await call(endpoint, "GET", `${widgets}?limit=1`);
  const from = (JSON.parse(body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const requests = Array.from({ length: WATCHERS }, () => {
    const req = request({
      host: endpoint.host,
      port: endpoint.port,
      path: `${widgets}?watch=true&resourceVersion=${from}&labelSelector=bench%3Dwatch`,
      ca: endpoint.ca,
      agent: watchAgent,
      headers: { authorization: `Bearer ${endpoint.token}` },
    });
    req.on("response", (res) => {
      let buffered = "";
      res.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        let newline = buffered.indexOf("\n");
        while (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          const event = JSON.parse(line) as { object: { spec: { sent: number } } };
          latencies.push(performance.timeOrigin + performance.now() - event.object.spec.sent);
          if (++delivered === expected) finish();
          newline = buffered.indexOf("\n");
        }
      });
    });
    req.on("error", () => {});
    req.end();
    return req;
  });
  await new Promise((r) => setTimeout(r, 500));
  const started = performance.now();
  for (let i = 0; i < WATCHED_WRITES; i++) {
    await call(endpoint, "POST", widgets, {
      apiVersion: "bench.kubevirt.io/v1",
      kind: "Widget",
      metadata: { name: `watched-${i}`, labels: { bench: "watch" } },
      spec: { size: i, sent: performance.timeOrigin + performance.now() },
    });
  }
  await Promise.race([done, new Promise((r) => setTimeout(r, 60_000))]);
  const seconds = (performance.now() - started) / 1000;
  for (const req of requests) req.destroy();
  latencies.sort((a, b) => a - b);
  return {
    eventsPerSecond: delivered / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-apiserver-"));
  const { child, endpoint } = await startServer(dataDir);
  try {
    const created = await call(
      endpoint,
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      crd,
    );
    if (created.status !== 201) throw new Error(`CRD not created: ${created.body}`);
    await new Promise((r) => setTimeout(r, 300));
    const idleRss = rssBytes(child.pid ?? 0);

    const createMs = await createMany(endpoint, "w", CREATES);
    const fanOut = await watchFanOut(endpoint);
    await createMany(endpoint, "m", MEMORY_OBJECTS - CREATES - WATCHED_WRITES);
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 1000));
    const loadedRss = rssBytes(child.pid ?? 0);

    reportBenchmark("apiserver", {
      creates_per_second: { value: CREATES / (createMs / 1000), unit: "creates/s (8 keep-alive clients)" },
      watch_events_per_second: {
        value: fanOut.eventsPerSecond,
        unit: `events/s delivered to ${WATCHERS} watchers`,
      },
      watch_delivery_p50: { value: fanOut.p50, unit: "ms write-to-delivery" },
      watch_delivery_p99: { value: fanOut.p99, unit: "ms write-to-delivery" },
      rss_idle: { value: idleRss / 2 ** 20, unit: "MiB" },
      rss_with_10000_objects: { value: loadedRss / 2 ** 20, unit: "MiB" },
      rss_per_10000_objects: { value: (loadedRss - idleRss) / 2 ** 20, unit: "MiB (growth over idle)" },
    });
  } finally {
    child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
