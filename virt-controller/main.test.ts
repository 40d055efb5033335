import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { Agent } from "node:https";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { leaseKind } from "../runtime/index.js";
import { CERTIFICATE_SECRETS, type TlsMaterial } from "../runtime/tls/tls-material.js";
import { eventually } from "../test/harness/api-server-fixture.js";
import { freePort } from "../test/harness/free-port.js";
import { httpsGet } from "../test/harness/https-get.js";
import { issueLoopbackServingCertificate, writeServingSecret } from "../test/harness/serving-certificate.js";
import { podKind, vmiKind, vmKind } from "./kinds.js";
import { NAMESPACE, vmManifest } from "./testing/fixtures.js";
import { KUBEVIRT_NAMESPACE, startVirtTestCluster, type VirtTestCluster } from "./testing/test-cluster.js";

const mainScript = fileURLToPath(new URL("./main.js", import.meta.url));

interface Replica {
  identity: string;
  /** Of its /metrics, over HTTPS. */
  metricsPort: number;
  child: ChildProcess;
  exited: Promise<number | null>;
}

async function startReplica(kubeconfig: string, identity: string): Promise<Replica> {
  const [healthPort, metricsPort] = [await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [
      mainScript,
      "--kubeconfig",
      kubeconfig,
      "--namespace",
      KUBEVIRT_NAMESPACE,
      "--address",
      "127.0.0.1",
      "--health-port",
      String(healthPort),
      "--metrics-port",
      String(metricsPort),
      "--identity",
      identity,
      // Short enough for a quick failover, long enough that a busy CI machine (the API server slow
      // to answer for a second) never makes a healthy leader lose its lease: a replica that loses
      // it exits, as client-go's do, and this test restarts none but the one it kills.
      "--leader-elect-lease-duration",
      "4",
      "--leader-elect-renew-deadline",
      "3",
      "--leader-elect-retry-period",
      "0.25",
      "--log-level",
      process.env.TEST_LOG_LEVEL ?? "warn",
    ],
    // Their logs go to stderr: the test runner reads this process's stdout.
    { stdio: ["ignore", 2, 2] },
  );
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { identity, metricsPort, child, exited };
}

/** What its https://127.0.0.1:PORT/metrics says, verified against the certificate's CA. */
async function isLeader(replica: Replica, serving: TlsMaterial, agent: Agent): Promise<boolean | undefined> {
  try {
    const url = `https://127.0.0.1:${replica.metricsPort}/metrics`;
    const text = (await httpsGet(url, { ca: serving.caPem, agent })).body;
    const match = /leader_election_master_status\{name="virt-controller"\} (\d)/.exec(text);
    return match ? match[1] === "1" : undefined;
  } catch {
    return undefined;
  }
}

describe("virt-controller processes: leader election and a kill -9 while VMs are being created", () => {
  let cluster: VirtTestCluster;
  let serving: TlsMaterial;
  let agent: Agent;
  const replicas: Replica[] = [];

  before(async () => {
    cluster = await startVirtTestCluster();
    // What virt-operator issues for virt-controller's metrics server (here for 127.0.0.1).
    serving = await issueLoopbackServingCertificate();
    const secret = CERTIFICATE_SECRETS.controllerServer;
    await writeServingSecret(cluster.client, KUBEVIRT_NAMESPACE, secret, serving);
    // The test polls the replicas every 50 ms: one TLS connection each, not one per look.
    agent = new Agent({ keepAlive: true, ca: serving.caPem });
  });
  after(async () => {
    for (const { child } of replicas)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    agent?.destroy();
    await cluster?.close();
  });

  async function leaders(candidates: readonly Replica[]): Promise<Replica[]> {
    const states = await Promise.all(candidates.map((replica) => isLeader(replica, serving, agent)));
    if (states.some((state) => state === undefined))
      throw new Error("a replica does not answer /metrics yet");
    return candidates.filter((_, at) => states[at] === true);
  }

  test("two replicas: exactly one leads; killed with -9 mid-work, the VMs still get exactly one VMI and one pod each", async (t) => {
    const first = await startReplica(cluster.api.kubeconfigPath, "replica-a");
    const second = await startReplica(cluster.api.kubeconfigPath, "replica-b");
    replicas.push(first, second);
    const [leader] = await eventually("one leader among two replicas", async () => {
      const leading = await leaders([first, second]);
      return leading.length === 1 ? leading : undefined;
    });
    assert.ok(leader);
    const lease = await cluster.client
      .resource(leaseKind)
      .get({ namespace: KUBEVIRT_NAMESPACE, name: "virt-controller" });
    assert.equal(lease.spec?.holderIdentity, leader.identity);

    const names = Array.from({ length: 10 }, (_, index) => `density-${index}`);
    await Promise.all(
      names.map((name) =>
        cluster.client.resource(vmKind).create(vmManifest(name, { runStrategy: "Always" })),
      ),
    );
    await eventually(
      "the leader at work",
      async () => {
        const vmis = await cluster.client.resource(vmiKind).list({ namespace: NAMESPACE });
        return vmis.items.length > 0 ? true : undefined;
      },
      10_000,
    );
    leader.child.kill("SIGKILL");
    await leader.exited;
    const atKill = await Promise.all([
      cluster.client.resource(vmiKind).list({ namespace: NAMESPACE }),
      cluster.client.resource(podKind).list({ namespace: NAMESPACE }),
    ]);
    t.diagnostic(
      `killed the leader with ${atKill[0].items.length} VMIs and ${atKill[1].items.length} pods created`,
    );
    const restarted = await startReplica(cluster.api.kubeconfigPath, `${leader.identity}-restarted`);
    replicas.push(restarted);
    const survivors = [first, second].filter((replica) => replica !== leader).concat(restarted);

    await eventually(
      "10 VMIs Scheduled",
      async () => {
        const vmis = await cluster.client.resource(vmiKind).list({ namespace: NAMESPACE });
        return vmis.items.filter((vmi) => vmi.status?.phase === "Scheduled").length === 10 ? true : undefined;
      },
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const vmis = (await cluster.client.resource(vmiKind).list({ namespace: NAMESPACE })).items;
    assert.deepEqual(vmis.map((vmi) => vmi.metadata?.name).sort(), [...names].sort());
    const pods = (
      await cluster.client
        .resource(podKind)
        .list({ namespace: NAMESPACE, labelSelector: "kubevirt.io=virt-launcher" })
    ).items;
    assert.equal(pods.length, 10, `pods: ${pods.map((pod) => pod.metadata?.name).join(", ")}`);
    assert.deepEqual(
      pods.map((pod) => pod.metadata?.labels?.["kubevirt.io/created-by"]).sort(),
      vmis.map((vmi) => vmi.metadata?.uid).sort(),
      "one pod per VMI",
    );
    const leading = await eventually("one leader among the survivors", async () => {
      const current = await leaders(survivors);
      return current.length === 1 ? current : undefined;
    });
    assert.equal(leading.length, 1);

    for (const replica of survivors) replica.child.kill("SIGTERM");
    assert.deepEqual(
      await Promise.all(survivors.map((replica) => replica.exited)),
      [0, 0],
      "SIGTERM stops gracefully",
    );
  });
});
