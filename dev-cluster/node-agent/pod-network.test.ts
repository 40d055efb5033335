import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Pod } from "./kinds.js";
import { type AgentTestCluster, startAgentTestCluster } from "./testing/agent-test-cluster.js";

const serverContainer = (extraEnv: { name: string; value: string }[] = []) => ({
  name: "server",
  image: "test/http-server",
  env: [
    { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
    { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
    { name: "PORT", value: "8080" },
    ...extraEnv,
  ],
  // Ready only once it listens: the tests call it as soon as the pod is Ready.
  readinessProbe: { httpGet: { path: "/ready", port: 8080 }, periodSeconds: 1 },
});

const tokenPath = "volumes/kubernetes.io~projected/kube-api-access/token";

async function get(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  return { status: response.status, body: await response.text() };
}

const isRunning = (pod: Pod): boolean => pod.status?.phase === "Running";
const isReady = (pod: Pod): boolean =>
  pod.status?.conditions?.some((condition) => condition.type === "Ready" && condition.status === "True") ??
  false;

describe("pod network", () => {
  let cluster: AgentTestCluster;
  before(async () => {
    cluster = await startAgentTestCluster();
  });
  after(async () => {
    await cluster?.close();
  });

  test("two replicas listening on the same port both run and answer at their pod IPs", async () => {
    await cluster.createPod("web-1", { containers: [serverContainer()] });
    await cluster.createPod("web-2", { containers: [serverContainer()] });
    const [one, two] = await Promise.all(
      ["web-1", "web-2"].map((name) =>
        cluster.waitForPod(name, "running and ready", (pod) => isRunning(pod) && isReady(pod)),
      ),
    );
    const ips = [one?.status?.podIP, two?.status?.podIP];
    assert.ok(ips[0] && ips[1] && ips[0] !== ips[1], `distinct pod IPs: ${ips.join(", ")}`);
    for (const [index, ip] of ips.entries()) {
      const answer = await get(`http://${ip}:8080/`);
      assert.equal(answer.status, 200);
      assert.equal(JSON.parse(answer.body).pod, `web-${index + 1}`);
    }
    assert.equal(one?.status?.hostIP, cluster.agent?.network.hostIP);
    if (cluster.agent?.network.mode === "netns") {
      const namespaces = execFileSync("ip", ["netns", "list"], { encoding: "utf8" });
      assert.equal(
        namespaces
          .split("\n")
          .filter((line) => line.startsWith(`${cluster.agentOptions.podNetwork.bridgeName}-`)).length,
        2,
      );
    }
  });
});

describe("pods and the API server", () => {
  let cluster: AgentTestCluster;
  before(async () => {
    cluster = await startAgentTestCluster();
  });
  after(async () => {
    await cluster?.close();
  });

  test("a pod reaches the API server at KUBERNETES_SERVICE_HOST with its CA and a bound token", async () => {
    await cluster.api.kubectl(["create", "serviceaccount", "default"]);
    await cluster.createPod("client", { containers: [serverContainer()] });
    const pod = await cluster.waitForPod("client", "ready", isReady);
    const tokenFile = join(cluster.agentOptions.dataDir, "pods", pod.metadata?.uid ?? "", tokenPath);
    assert.match(readFileSync(tokenFile, "utf8"), /^[\w-]+\.[\w-]+\.[\w-]+$/, "a JWT");
    const answer = await get(`http://${pod.status?.podIP}:8080/api`);
    assert.equal(answer.status, 200, answer.body);
    const status = (JSON.parse(answer.body) as { status: number }).status;
    assert.ok([200, 403].includes(status), `the API server took the token (answered ${status})`);
  });

  test("a hostNetwork pod gets the node's address", async () => {
    await cluster.createPod("on-host", {
      hostNetwork: true,
      containers: [{ name: "main", image: "test/sleep" }],
    });
    const pod = await cluster.waitForPod("on-host", "running", isRunning);
    assert.equal(pod.status?.podIP, cluster.agent?.network.hostIP);
    assert.equal(pod.status?.hostIP, cluster.agent?.network.hostIP);
  });
});

describe("pod network without namespaces", () => {
  let cluster: AgentTestCluster;
  before(async () => {
    cluster = await startAgentTestCluster({ mode: "loopback" });
  });
  after(async () => {
    await cluster?.close();
  });

  test("replicas get distinct 127.0.0.0/8 addresses and do not collide on their port", async () => {
    await cluster.createPod("local-1", { containers: [serverContainer()] });
    await cluster.createPod("local-2", { containers: [serverContainer()] });
    const pods = await Promise.all(
      ["local-1", "local-2"].map((name) => cluster.waitForPod(name, "ready", isReady)),
    );
    const ips = pods.map((pod) => pod.status?.podIP ?? "");
    assert.ok(ips.every((ip) => ip.startsWith("127.")) && ips[0] !== ips[1], `addresses: ${ips.join(", ")}`);
    for (const [index, ip] of ips.entries()) {
      assert.equal(JSON.parse((await get(`http://${ip}:8080/`)).body).pod, `local-${index + 1}`);
    }
  });
});
