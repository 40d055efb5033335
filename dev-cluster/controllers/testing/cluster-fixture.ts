/**
 * Test helpers over the dev API server fixture: kubectl that must succeed, objects as JSON,
 * and Node objects that look like registered, Ready nodes.
 */
import assert from "node:assert/strict";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { stringify } from "yaml";
import { KubeClient, SharedInformer } from "../../../runtime/index.js";
import type { TestApiServer } from "../../../test/harness/api-server-fixture.js";
import { type ReplicaSet, replicaSetKind } from "../kinds.js";

/** Runs kubectl and fails the test with its stderr unless it succeeded; returns stdout. */
export async function kubectlOk(api: TestApiServer, args: string[], input?: string): Promise<string> {
  const result = await api.kubectl(args, input === undefined ? {} : { input });
  assert.equal(result.code, 0, `kubectl ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** `kubectl get ... -o json`, parsed. */
export async function getJson<T>(api: TestApiServer, args: string[]): Promise<T> {
  return JSON.parse(await kubectlOk(api, ["get", ...args, "-o", "json"])) as T;
}

/**
 * `kubectl apply -f -` of objects, as a multi-document YAML stream (a `v1 List` fails kubectl's
 * validation here: for a List it reads /openapi/v2, which the dev API server does not serve).
 */
export async function apply(api: TestApiServer, ...objects: unknown[]): Promise<void> {
  await kubectlOk(api, ["apply", "-f", "-"], objects.map((object) => stringify(object)).join("---\n"));
}

export interface NodeSpec {
  name: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: "NoSchedule" | "NoExecute" | "PreferNoSchedule" }[];
  unschedulable?: boolean;
}

/** Registers nodes as a kubelet would (with the usual labels), then reports them Ready. */
export async function addNodes(api: TestApiServer, nodes: readonly NodeSpec[]): Promise<void> {
  await apply(
    api,
    ...nodes.map((node) => ({
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name: node.name,
        labels: { "kubernetes.io/hostname": node.name, "kubernetes.io/os": "linux", ...(node.labels ?? {}) },
      },
      spec: {
        ...(node.taints ? { taints: node.taints } : {}),
        ...(node.unschedulable ? { unschedulable: true } : {}),
      },
    })),
  );
  const ready = {
    status: {
      conditions: [
        { type: "Ready", status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" },
      ],
      capacity: { cpu: "4", memory: "8Gi", pods: "110" },
      allocatable: { cpu: "4", memory: "8Gi", pods: "110" },
    },
  };
  await Promise.all(
    nodes.map((node) =>
      kubectlOk(api, [
        "patch",
        "node",
        node.name,
        "--subresource=status",
        "--type=merge",
        "-p",
        JSON.stringify(ready),
      ]),
    ),
  );
}

export interface PodSummary {
  name: string;
  node: string | undefined;
  labels: Record<string, string>;
  ip: string | undefined;
  ready: boolean;
  terminating: boolean;
  owner: string | undefined;
}

interface PodJson {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
  spec: { nodeName?: string };
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
}

/** The pods of a namespace (optionally by label selector), summarised. */
export async function listPods(
  api: TestApiServer,
  namespace: string,
  selector?: string,
): Promise<PodSummary[]> {
  const list = await getJson<{ items: PodJson[] }>(api, [
    "pods",
    "-n",
    namespace,
    ...(selector ? ["-l", selector] : []),
  ]);
  return list.items.map((pod) => {
    const owner = pod.metadata.ownerReferences?.find((reference) => reference.controller);
    return {
      name: pod.metadata.name,
      node: pod.spec.nodeName,
      labels: pod.metadata.labels ?? {},
      ip: pod.status?.podIP,
      ready: pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false,
      terminating: pod.metadata.deletionTimestamp !== undefined,
      owner: owner ? `${owner.kind}/${owner.name}` : undefined,
    };
  });
}

/**
 * Watches a namespace's ReplicaSets and remembers the largest total of spec.replicas it saw:
 * the number of pods a rollout asked for at its peak (maxSurge's bound).
 */
export async function watchReplicaSetTotals(
  kubeConfig: KubeConfig,
  namespace: string,
  log: Logger,
): Promise<{ peak(): number; stop(): Promise<void> }> {
  const client = KubeClient.fromKubeConfig(kubeConfig, { fieldManager: "test-observer" });
  const informer = new SharedInformer<ReplicaSet>({
    client: client.resource(replicaSetKind),
    log,
    namespace,
  });
  let peak = 0;
  const record = (): void => {
    const total = informer.list().reduce((sum, replicaSet) => sum + (replicaSet.spec?.replicas ?? 0), 0);
    peak = Math.max(peak, total);
  };
  informer.addEventHandler({ onAdd: record, onUpdate: record, onDelete: record });
  informer.start();
  await informer.waitForSync();
  return {
    peak: () => peak,
    async stop() {
      await informer.stop();
      client.close();
    },
  };
}
