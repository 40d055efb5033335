/**
 * `npm run bench -- runtime`: the controller runtime against a dev-cluster API server running as
 * a separate process (so its memory is not counted here).
 * - heap used by one informer caching 10,000 VM-sized custom resources (managedFields stripped,
 *   as the manager caches them, and kept);
 * - enqueue-to-reconcile latency of a controller fed 1,000 keys/s (2 workers, reconcile reads
 *   the cache);
 * - write-to-reconcile latency through the watch at 200 writes/s (API write, watch event,
 *   informer, queue, reconcile).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";
import { pino } from "pino";
import { isAlreadyExists } from "../runtime/client/api-errors.js";
import { KubeClient } from "../runtime/client/kube-client.js";
import { Controller } from "../runtime/controller/controller.js";
import { stripManagedFields } from "../runtime/informer/indexed-store.js";
import { SharedInformer } from "../runtime/informer/shared-informer.js";
import type { KubeObject } from "../runtime/objects/kube-object.js";
import { defineKind } from "../runtime/objects/resource-kind.js";
import { percentile, reportBenchmark } from "./bench-report.js";

const OBJECTS = 10_000;
const CREATE_CONCURRENCY = 8;
const KEYS_PER_SECOND = 1_000;
const LATENCY_SECONDS = 5;
const WRITES_PER_SECOND = 200;
const WRITE_SECONDS = 3;

interface BenchVm extends KubeObject {
  spec?: Record<string, unknown> & { sent?: number };
}

const vmKind = defineKind<BenchVm>({
  group: "bench.runtime.kubevirt.io",
  version: "v1",
  kind: "BenchVM",
  plural: "benchvms",
  namespaced: true,
});

const log = pino({ level: "warn" });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const now = () => performance.timeOrigin + performance.now();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A VirtualMachine-like object, about the size of KubeVirt's examples. */
function vm(i: number): BenchVm {
  return {
    metadata: {
      name: `vm-${i}`,
      namespace: "default",
      labels: { app: "bench", "kubevirt.io/vm": `vm-${i}`, tier: i % 2 === 0 ? "web" : "db" },
      annotations: { "kubevirt.io/latest-observed-api-version": "v1", "bench.kubevirt.io/index": String(i) },
    },
    spec: {
      runStrategy: "Always",
      template: {
        metadata: { labels: { "kubevirt.io/domain": `vm-${i}`, "kubevirt.io/size": "small" } },
        spec: {
          domain: {
            cpu: { cores: 1, sockets: 1, threads: 1 },
            memory: { guest: "1Gi" },
            resources: { requests: { memory: "1Gi" } },
            devices: {
              disks: [
                { name: "containerdisk", disk: { bus: "virtio" } },
                { name: "cloudinitdisk", disk: { bus: "virtio" } },
              ],
              interfaces: [{ name: "default", masquerade: {} }],
            },
            machine: { type: "q35" },
          },
          networks: [{ name: "default", pod: {} }],
          terminationGracePeriodSeconds: 30,
          volumes: [
            {
              name: "containerdisk",
              containerDisk: { image: "quay.io/kubevirt/cirros-container-disk-demo:latest" },
            },
            {
              name: "cloudinitdisk",
              cloudInitNoCloud: {
                userData: "#cloud-config\npassword: fedora\nchpasswd: { expire: False }\n",
              },
            },
          ],
        },
      },
    },
  };
}

async function startCluster(dataDir: string): Promise<{ child: ChildProcess; kubeConfig: KubeConfig }> {
  const main = join(dirname(fileURLToPath(import.meta.url)), "..", "dev-cluster", "main.js");
  const kubeconfigPath = join(dataDir, "kubeconfig");
  const child = spawn(
    process.execPath,
    [main, "up", "--data-dir", dataDir, "--port", "0", "--kubeconfig", kubeconfigPath, "--no-registry"],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const deadline = Date.now() + 30_000;
  while (!existsSync(kubeconfigPath)) {
    if (Date.now() > deadline) throw new Error("the dev cluster did not write its kubeconfig within 30 s");
    await pause(50);
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  return { child, kubeConfig };
}

async function installCrd(client: KubeClient): Promise<void> {
  const crdKind = defineKind<KubeObject & { spec: unknown }>({
    group: "apiextensions.k8s.io",
    version: "v1",
    kind: "CustomResourceDefinition",
    plural: "customresourcedefinitions",
    namespaced: false,
  });
  try {
    await client.resource(crdKind).create({
      metadata: { name: `${vmKind.plural}.${vmKind.group}` },
      spec: {
        group: vmKind.group,
        scope: "Namespaced",
        names: { plural: vmKind.plural, singular: "benchvm", kind: vmKind.kind, listKind: "BenchVMList" },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
              },
            },
          },
        ],
      },
    });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await client.resource(vmKind).list({ namespace: "default", limit: 1 });
      return;
    } catch (error) {
      if (attempt > 200) throw error;
      await pause(50);
    }
  }
}

async function createObjects(client: KubeClient): Promise<number> {
  const vms = client.resource(vmKind);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      while (next < OBJECTS) await vms.create(vm(next++));
    }),
  );
  return performance.now() - started;
}

async function informerHeap(
  client: KubeClient,
  strip: boolean,
): Promise<{ heapMiB: number; syncMs: number; objects: number }> {
  gc();
  await pause(100);
  gc();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const informer = new SharedInformer<BenchVm>({
    client: client.resource(vmKind),
    log,
    ...(strip ? { transform: stripManagedFields } : {}),
  });
  informer.start();
  await informer.waitForSync();
  const syncMs = performance.now() - started;
  gc();
  await pause(100);
  gc();
  const after = process.memoryUsage().heapUsed;
  const objects = informer.size;
  await informer.stop();
  return { heapMiB: (after - before) / 2 ** 20, syncMs, objects };
}

/** Feeds a controller KEYS_PER_SECOND distinct keys; returns enqueue-to-reconcile latencies (ms). */
async function enqueueLatency(client: KubeClient): Promise<number[]> {
  const informer = new SharedInformer<BenchVm>({
    client: client.resource(vmKind),
    log,
    transform: stripManagedFields,
  });
  const enqueuedAt = new Map<string, number>();
  const latencies: number[] = [];
  const controller = new Controller({
    name: "bench",
    log,
    workers: 2,
    reconcile: async ({ key }) => {
      const at = enqueuedAt.get(key);
      if (informer.get(key) && at !== undefined) latencies.push(performance.now() - at);
      return {};
    },
  });
  controller.dependsOn(informer);
  informer.start();
  const stop = new AbortController();
  const running = controller.run(stop.signal);
  await informer.waitForSync();
  const total = KEYS_PER_SECOND * LATENCY_SECONDS;
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * KEYS_PER_SECOND));
    for (; sent < due; sent++) {
      const key = `default/vm-${sent % OBJECTS}`;
      enqueuedAt.set(key, performance.now());
      controller.enqueue(key);
    }
    await pause(1);
  }
  await pause(200);
  stop.abort();
  await running;
  await informer.stop();
  return latencies;
}

/** Writes WRITES_PER_SECOND patches; returns write-sent-to-reconcile latencies (ms) through the watch. */
async function writeLatency(client: KubeClient): Promise<number[]> {
  const vms = client.resource(vmKind);
  const informer = new SharedInformer<BenchVm>({ client: vms, log, transform: stripManagedFields });
  const latencies: number[] = [];
  const reported = new Set<number>();
  const controller = new Controller({
    name: "bench-watch",
    log,
    workers: 2,
    reconcile: async ({ key }) => {
      const sent = informer.get(key)?.spec?.sent;
      if (sent !== undefined && !reported.has(sent)) {
        reported.add(sent);
        latencies.push(now() - sent);
      }
      return {};
    },
  });
  informer.start();
  await informer.waitForSync();
  controller.watch(informer);
  const stop = new AbortController();
  const running = controller.run(stop.signal);
  await pause(300);
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < WRITES_PER_SECOND * WRITE_SECONDS; i++) {
    writes.push(vms.mergePatch({ namespace: "default", name: `vm-${i}` }, { spec: { sent: now() } }));
    await pause(1000 / WRITES_PER_SECOND);
  }
  await Promise.all(writes);
  await pause(500);
  stop.abort();
  await running;
  await informer.stop();
  return latencies;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-runtime-"));
  const { child, kubeConfig } = await startCluster(dataDir);
  const client = KubeClient.fromKubeConfig(kubeConfig, { fieldManager: "bench" });
  try {
    await installCrd(client);
    const createMs = await createObjects(client);
    const objectBytes = Buffer.byteLength(
      JSON.stringify(await client.resource(vmKind).get({ namespace: "default", name: "vm-1" })),
    );
    const kept = await informerHeap(client, false);
    const stripped = await informerHeap(client, true);
    const enqueue = (await enqueueLatency(client)).sort((a, b) => a - b);
    const write = (await writeLatency(client)).sort((a, b) => a - b);
    reportBenchmark("runtime", {
      objects_cached: { value: stripped.objects, unit: `objects of ~${objectBytes} bytes JSON each` },
      informer_heap_10000_objects: {
        value: stripped.heapMiB,
        unit: "MiB heap (managedFields stripped, the manager's default)",
      },
      informer_heap_10000_objects_with_managed_fields: {
        value: kept.heapMiB,
        unit: "MiB heap (objects as served)",
      },
      informer_initial_sync: { value: stripped.syncMs, unit: "ms list of 10,000 objects into the cache" },
      enqueue_to_reconcile_p50: {
        value: percentile(enqueue, 50),
        unit: `ms at ${KEYS_PER_SECOND} keys/s (${enqueue.length} keys)`,
      },
      enqueue_to_reconcile_p99: { value: percentile(enqueue, 99), unit: "ms" },
      write_to_reconcile_p50: {
        value: percentile(write, 50),
        unit: `ms at ${WRITES_PER_SECOND} writes/s through the watch (${write.length} writes)`,
      },
      write_to_reconcile_p99: { value: percentile(write, 99), unit: "ms" },
      setup_creates_per_second: {
        value: OBJECTS / (createMs / 1000),
        unit: "creates/s (8 concurrent, one keep-alive pool)",
      },
    });
  } finally {
    client.close();
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
