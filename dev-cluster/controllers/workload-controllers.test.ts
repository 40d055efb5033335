import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import type { Manager } from "../../runtime/index.js";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import {
  addNodes,
  apply,
  getJson,
  kubectlOk,
  listPods,
  watchReplicaSetTotals,
} from "./testing/cluster-fixture.js";
import { FakeKubelet } from "./testing/fake-kubelet.js";
import { startWorkloadControllers } from "./workload-controllers.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

function deployment(namespace: string, name: string, replicas: number, image: string): unknown {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: "server", image, ports: [{ name: "http", containerPort: 8080 }] }],
          terminationGracePeriodSeconds: 5,
        },
      },
    },
  };
}

interface ReplicaSetJson {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
  spec: { replicas: number };
  status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number };
}

interface DeploymentJson {
  metadata: { generation: number; annotations?: Record<string, string> };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    conditions?: { type: string; status: string; reason: string }[];
  };
}

describe("workload controllers against the dev API server, with kubectl", () => {
  let api: TestApiServer;
  let controllers: Manager;
  let kubelet: FakeKubelet;
  const startControllers = async (): Promise<Manager> =>
    startWorkloadControllers({ kubeConfig: api.kubeConfig(), log, gracefulShutdownMs: 5000 });

  before(async () => {
    api = await startTestApiServer();
    await addNodes(api, [
      { name: "node-a", labels: { role: "worker" } },
      {
        name: "node-b",
        labels: { role: "worker" },
        taints: [{ key: "dedicated", value: "infra", effect: "NoSchedule" }],
      },
      { name: "node-c", labels: { role: "edge" } },
      { name: "node-d", labels: { role: "worker" }, unschedulable: true },
    ]);
    controllers = await startControllers();
    const nodes = ["node-a", "node-b", "node-c", "node-d"];
    kubelet = await FakeKubelet.start({ kubeConfig: api.kubeConfig(), log, nodes, defaultNode: "node-a" });
  });
  after(async () => {
    await kubelet?.stop();
    await controllers?.stop();
    await api?.close();
  });

  test("a Deployment reaches Available and kubectl rollout status returns", async () => {
    await kubectlOk(api, ["create", "namespace", "web"]);
    await apply(api, deployment("web", "web", 3, "server:1"));
    await kubectlOk(api, ["rollout", "status", "deployment/web", "-n", "web", "--timeout=20s"]);
    const object = await getJson<DeploymentJson>(api, ["deployment", "web", "-n", "web"]);
    assert.equal(object.status?.observedGeneration, object.metadata.generation);
    assert.equal(object.status?.availableReplicas, 3);
    assert.equal(object.metadata.annotations?.["deployment.kubernetes.io/revision"], "1");
    const conditions = Object.fromEntries(
      (object.status?.conditions ?? []).map((c) => [c.type, `${c.status}/${c.reason}`]),
    );
    assert.deepEqual(conditions, {
      Available: "True/MinimumReplicasAvailable",
      Progressing: "True/NewReplicaSetAvailable",
    });
    const replicaSets = await getJson<{ items: ReplicaSetJson[] }>(api, ["rs", "-n", "web"]);
    assert.equal(replicaSets.items.length, 1);
    const [replicaSet] = replicaSets.items;
    const hash = replicaSet?.metadata.labels?.["pod-template-hash"] ?? "";
    assert.equal(replicaSet?.metadata.name, `web-${hash}`);
    assert.deepEqual(
      replicaSet?.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name}/${o.controller}`),
      ["Deployment/web/true"],
    );
    const pods = await listPods(api, "web");
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      assert.match(pod.name, new RegExp(`^web-${hash}-[a-z0-9]{5}$`));
      assert.equal(pod.owner, `ReplicaSet/web-${hash}`);
      assert.equal(pod.labels["pod-template-hash"], hash);
    }
  });

  test("a template change rolls out within maxSurge: a new ReplicaSet, the old one scaled to 0, revisions recorded", async () => {
    const observer = await watchReplicaSetTotals(api.kubeConfig(), "web", log);
    await kubectlOk(api, ["set", "image", "deployment/web", "-n", "web", "server=server:2"]);
    await kubectlOk(api, ["rollout", "status", "deployment/web", "-n", "web", "--timeout=20s"]);
    await observer.stop();
    // 3 replicas, maxSurge 25% (rounded up: 1), maxUnavailable 25% (rounded down: 0).
    assert.equal(observer.peak(), 4);
    const replicaSets = await getJson<{ items: ReplicaSetJson[] }>(api, ["rs", "-n", "web"]);
    const byRevision = new Map(
      replicaSets.items.map((rs) => [rs.metadata.annotations?.["deployment.kubernetes.io/revision"], rs]),
    );
    assert.equal(replicaSets.items.length, 2);
    assert.equal(byRevision.get("1")?.spec.replicas, 0);
    assert.equal(byRevision.get("2")?.spec.replicas, 3);
    const object = await getJson<DeploymentJson>(api, ["deployment", "web", "-n", "web"]);
    assert.equal(object.metadata.annotations?.["deployment.kubernetes.io/revision"], "2");
    assert.equal(object.status?.updatedReplicas, 3);
    const pods = await eventually("the old pods to be gone", async () => {
      const current = await listPods(api, "web");
      return current.length === 3 ? current : undefined;
    });
    const newHash = byRevision.get("2")?.metadata.labels?.["pod-template-hash"];
    assert.ok(pods.every((pod) => pod.labels["pod-template-hash"] === newHash));
    const history = await kubectlOk(api, ["rollout", "history", "deployment/web", "-n", "web"]);
    assert.match(history, /^1\s/m);
    assert.match(history, /^2\s/m);
  });

  test("kubectl rollout undo brings the first ReplicaSet back as revision 3", async () => {
    await kubectlOk(api, ["rollout", "undo", "deployment/web", "-n", "web"]);
    await kubectlOk(api, ["rollout", "status", "deployment/web", "-n", "web", "--timeout=20s"]);
    const replicaSets = await getJson<{ items: ReplicaSetJson[] }>(api, ["rs", "-n", "web"]);
    assert.equal(replicaSets.items.length, 2);
    const active = replicaSets.items.find((rs) => rs.spec.replicas === 3);
    assert.equal(active?.metadata.annotations?.["deployment.kubernetes.io/revision"], "3");
    assert.equal(active?.metadata.annotations?.["deployment.kubernetes.io/revision-history"], "1");
    const image = await kubectlOk(api, [
      "get",
      "deploy",
      "web",
      "-n",
      "web",
      "-o",
      "jsonpath={.spec.template.spec.containers[0].image}",
    ]);
    assert.equal(image, "server:1");
  });

  test("a Recreate Deployment removes the old pods before it starts new ones", async () => {
    await kubectlOk(api, ["create", "namespace", "batch"]);
    const recreate = (image: string): unknown => {
      const object = deployment("batch", "worker", 2, image) as { spec: Record<string, unknown> };
      object.spec.strategy = { type: "Recreate" };
      return object;
    };
    await apply(api, recreate("worker:1"));
    await kubectlOk(api, ["rollout", "status", "deployment/worker", "-n", "batch", "--timeout=20s"]);
    const observer = await watchReplicaSetTotals(api.kubeConfig(), "batch", log);
    await apply(api, recreate("worker:2"));
    await kubectlOk(api, ["rollout", "status", "deployment/worker", "-n", "batch", "--timeout=20s"]);
    await observer.stop();
    assert.equal(observer.peak(), 2, "old and new ReplicaSets never wanted pods at the same time");
    const pods = await eventually("the two new pods only", async () => {
      const current = await listPods(api, "batch");
      return current.length === 2 ? current : undefined;
    });
    assert.equal(new Set(pods.map((pod) => pod.labels["pod-template-hash"])).size, 1);
  });

  test("a paused Deployment records template changes but rolls them out only once resumed", async () => {
    await kubectlOk(api, ["rollout", "pause", "deployment/worker", "-n", "batch"]);
    await kubectlOk(api, ["set", "image", "deployment/worker", "-n", "batch", "server=worker:3"]);
    const paused = await eventually("the Progressing condition to say paused", async () => {
      const object = await getJson<DeploymentJson>(api, ["deployment", "worker", "-n", "batch"]);
      const progressing = object.status?.conditions?.find((c) => c.type === "Progressing");
      return progressing?.reason === "DeploymentPaused" &&
        object.status?.observedGeneration === object.metadata.generation
        ? object
        : undefined;
    });
    assert.equal(paused.status?.updatedReplicas, 0, "nothing of the new template runs");
    assert.equal((await getJson<{ items: unknown[] }>(api, ["rs", "-n", "batch"])).items.length, 2);
    await kubectlOk(api, ["rollout", "resume", "deployment/worker", "-n", "batch"]);
    await kubectlOk(api, ["rollout", "status", "deployment/worker", "-n", "batch", "--timeout=20s"]);
    assert.equal((await getJson<{ items: unknown[] }>(api, ["rs", "-n", "batch"])).items.length, 3);
  });

  test("scaling up and down changes the pods; a deleted pod is replaced", async () => {
    await kubectlOk(api, ["scale", "deployment/web", "-n", "web", "--replicas=5"]);
    await kubectlOk(api, ["rollout", "status", "deployment/web", "-n", "web", "--timeout=20s"]);
    assert.equal((await listPods(api, "web")).length, 5);
    await kubectlOk(api, ["scale", "deployment/web", "-n", "web", "--replicas=2"]);
    await eventually("two pods", async () => ((await listPods(api, "web")).length === 2 ? true : undefined));
    const [victim] = await listPods(api, "web");
    await kubectlOk(api, ["delete", "pod", victim?.name ?? "", "-n", "web", "--wait=false"]);
    const replaced = await eventually("a replacement pod, ready", async () => {
      const pods = await listPods(api, "web");
      const ready = pods.filter((pod) => pod.ready && !pod.terminating);
      return ready.length === 2 && !pods.some((pod) => pod.name === victim?.name) ? pods : undefined;
    });
    assert.equal(replaced.length, 2);
    await kubectlOk(api, ["rollout", "status", "deployment/web", "-n", "web", "--timeout=20s"]);
  });

  test("a DaemonSet runs one pod per eligible node, pinned by node affinity, and rolls on a template change", async () => {
    await kubectlOk(api, ["create", "namespace", "infra"]);
    await apply(api, daemonSet([]));
    await kubectlOk(api, ["rollout", "status", "daemonset/agent", "-n", "infra", "--timeout=20s"]);
    // node-b's taint is not tolerated, node-c is not a worker; node-d is unschedulable, which daemons tolerate.
    const first = await listPods(api, "infra");
    assert.deepEqual(first.map((pod) => pod.node).sort(), ["node-a", "node-d"]);
    const [pod] = (await getJson<{ items: DaemonPodJson[] }>(api, ["pods", "-n", "infra"])).items;
    assert.deepEqual(
      pod?.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
      [{ matchFields: [{ key: "metadata.name", operator: "In", values: [pod?.spec.nodeName] }] }],
    );
    const tolerated = pod?.spec.tolerations.map((t) => `${t.key}:${t.effect}`) ?? [];
    for (const key of [
      "node.kubernetes.io/not-ready:NoExecute",
      "node.kubernetes.io/unreachable:NoExecute",
      "node.kubernetes.io/unschedulable:NoSchedule",
    ])
      assert.ok(tolerated.includes(key), `${key} in ${tolerated.join(", ")}`);
    const firstHash = first[0]?.labels["controller-revision-hash"];
    assert.ok(firstHash && first.every((p) => p.labels["controller-revision-hash"] === firstHash));

    await apply(
      api,
      daemonSet([{ key: "dedicated", operator: "Equal", value: "infra", effect: "NoSchedule" }]),
    );
    await kubectlOk(api, ["rollout", "status", "daemonset/agent", "-n", "infra", "--timeout=20s"]);
    const second = await eventually("three new pods and no old one", async () => {
      const pods = await listPods(api, "infra");
      return pods.length === 3 ? pods : undefined;
    });
    assert.deepEqual(second.map((p) => p.node).sort(), ["node-a", "node-b", "node-d"]);
    const secondHash = second[0]?.labels["controller-revision-hash"];
    assert.notEqual(secondHash, firstHash);
    assert.ok(second.every((p) => p.labels["controller-revision-hash"] === secondHash && p.ready));
    const status = (await getJson<{ status: Record<string, number> }>(api, ["ds", "agent", "-n", "infra"]))
      .status;
    assert.deepEqual(
      [
        status.desiredNumberScheduled,
        status.currentNumberScheduled,
        status.updatedNumberScheduled,
        status.numberReady,
        status.numberAvailable,
        status.numberMisscheduled,
      ],
      [3, 3, 3, 3, 3, 0],
    );

    await kubectlOk(api, ["label", "node", "node-d", "role=retired", "--overwrite"]);
    await eventually("node-d's daemon pod to go", async () => {
      const pods = await listPods(api, "infra");
      return pods.length === 2 && !pods.some((p) => p.node === "node-d") ? true : undefined;
    });
  });

  test("Endpoints and EndpointSlices list the ready pods and move not-ready ones aside", async () => {
    await apply(api, {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web", namespace: "web" },
      spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: "http" }] },
    });
    const pods = (await listPods(api, "web")).filter((pod) => !pod.terminating);
    const ips = pods.map((pod) => pod.ip ?? "").sort();
    assert.equal(ips.length, 2);
    await eventually("Endpoints with both pods", async () => {
      const endpoints = await getJson<EndpointsJson>(api, ["endpoints", "web", "-n", "web"]);
      const subset = endpoints.subsets?.[0];
      const listed = (subset?.addresses ?? []).map((address) => address.ip).sort();
      return JSON.stringify(listed) === JSON.stringify(ips) && subset?.ports?.[0]?.port === 8080
        ? true
        : undefined;
    });
    const [first] = pods;
    await kubelet.setReady("web", first?.name ?? "", false);
    const moved = await eventually("the not-ready pod among notReadyAddresses", async () => {
      const endpoints = await getJson<EndpointsJson>(api, ["endpoints", "web", "-n", "web"]);
      const subset = endpoints.subsets?.[0];
      return subset?.notReadyAddresses?.[0]?.ip === first?.ip ? subset : undefined;
    });
    assert.deepEqual(
      moved.addresses?.map((address) => address.ip),
      ips.filter((ip) => ip !== first?.ip),
    );
    assert.equal(moved.notReadyAddresses?.[0]?.targetRef?.name, first?.name);
    assert.equal(moved.notReadyAddresses?.[0]?.nodeName, "node-a");
    const slices = await eventually("an EndpointSlice showing the pod not ready", async () => {
      const list = await getJson<{ items: SliceJson[] }>(api, [
        "endpointslices",
        "-n",
        "web",
        "-l",
        "kubernetes.io/service-name=web",
      ]);
      const endpoint = list.items[0]?.endpoints.find((e) => e.addresses[0] === first?.ip);
      return list.items.length === 1 && endpoint?.conditions.ready === false ? list.items : undefined;
    });
    const [slice] = slices;
    assert.equal(slice?.addressType, "IPv4");
    assert.deepEqual(slice?.ports, [{ name: "", port: 8080, protocol: "TCP" }]);
    assert.deepEqual(
      slice?.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name}`),
      ["Service/web"],
    );
    assert.equal(slice?.endpoints.filter((e) => e.conditions.ready).length, 1);
    await kubelet.setReady("web", first?.name ?? "", true);
    await eventually("the pod ready again", async () => {
      const endpoints = await getJson<EndpointsJson>(api, ["endpoints", "web", "-n", "web"]);
      return endpoints.subsets?.[0]?.addresses?.length === 2 && !endpoints.subsets[0]?.notReadyAddresses
        ? true
        : undefined;
    });
  });

  test("a new namespace gets a default ServiceAccount, and gets it back when it is deleted", async () => {
    await kubectlOk(api, ["create", "namespace", "team-a"]);
    await eventually("the default ServiceAccount", async () =>
      (await api.kubectl(["get", "sa", "default", "-n", "team-a"])).code === 0 ? true : undefined,
    );
    await kubectlOk(api, ["delete", "sa", "default", "-n", "team-a"]);
    await eventually("the default ServiceAccount back", async () =>
      (await api.kubectl(["get", "sa", "default", "-n", "team-a"])).code === 0 ? true : undefined,
    );
  });

  test("controllers restarted during a scale-up and after a pod deletion converge with no duplicates", async () => {
    await kubectlOk(api, ["scale", "deployment/web", "-n", "web", "--replicas=20"]);
    await eventually("the scale-up to start", async () =>
      (await listPods(api, "web")).length > 2 ? true : undefined,
    );
    await controllers.stop();
    const [daemonPod] = await listPods(api, "infra");
    await kubectlOk(api, ["delete", "pod", daemonPod?.name ?? "", "-n", "infra", "--wait=false"]);
    controllers = await startControllers();
    await kubectlOk(api, ["rollout", "status", "deployment/web", "-n", "web", "--timeout=20s"]);
    await kubectlOk(api, ["rollout", "status", "daemonset/agent", "-n", "infra", "--timeout=20s"]);
    // Give a duplicate every chance to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pods = await listPods(api, "web");
    assert.equal(pods.filter((pod) => !pod.terminating).length, 20);
    assert.equal((await getJson<{ items: unknown[] }>(api, ["rs", "-n", "web"])).items.length, 2);
    const daemons = await listPods(api, "infra");
    assert.deepEqual(daemons.map((pod) => pod.node).sort(), ["node-a", "node-b"]);
  });
});

interface DaemonPodJson {
  spec: {
    nodeName?: string;
    affinity: {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: unknown[] } };
    };
    tolerations: { key?: string; effect?: string }[];
  };
}

interface EndpointsJson {
  subsets?: {
    addresses?: { ip: string; nodeName?: string; targetRef?: { name: string } }[];
    notReadyAddresses?: { ip: string; nodeName?: string; targetRef?: { name: string } }[];
    ports?: { port: number }[];
  }[];
}

interface SliceJson {
  metadata: { ownerReferences?: { kind: string; name: string }[] };
  addressType: string;
  ports: unknown[];
  endpoints: { addresses: string[]; conditions: { ready: boolean } }[];
}

function daemonSet(tolerations: unknown[]): unknown {
  return {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name: "agent", namespace: "infra" },
    spec: {
      selector: { matchLabels: { app: "agent" } },
      template: {
        metadata: { labels: { app: "agent" } },
        spec: {
          nodeSelector: { role: "worker" },
          tolerations,
          containers: [{ name: "agent", image: "agent:1" }],
        },
      },
    },
  };
}
