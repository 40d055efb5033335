import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { vmirsKind } from "../../api/index.js";
import { leaseKind } from "../../runtime/index.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { freePort } from "../../test/harness/free-port.js";
import {
  issueLoopbackServingCertificate,
  writeServingSecret,
} from "../../test/harness/serving-certificate.js";
import { vmiKind } from "../kinds.js";
import { NAMESPACE, smallVmiSpec } from "../testing/fixtures.js";
import { KUBEVIRT_NAMESPACE, startVirtTestCluster, type VirtTestCluster } from "../testing/test-cluster.js";

const mainScript = fileURLToPath(new URL("../main.js", import.meta.url));
const REPLICAS = 30;

interface Replica {
  identity: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

/** A virt-controller process with short leader election timings (a quick failover). */
async function startReplica(kubeconfig: string, identity: string): Promise<Replica> {
  const [healthPort, metricsPort] = [await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [
      mainScript,
      ...["--kubeconfig", kubeconfig, "--namespace", KUBEVIRT_NAMESPACE, "--address", "127.0.0.1"],
      ...["--health-port", String(healthPort), "--metrics-port", String(metricsPort), "--identity", identity],
      ...["--leader-elect-lease-duration", "4", "--leader-elect-renew-deadline", "3"],
      ...["--leader-elect-retry-period", "0.25", "--log-level", process.env.TEST_LOG_LEVEL ?? "warn"],
    ],
    { stdio: ["ignore", 2, 2] },
  );
  return { identity, child, exited: once(child, "exit") };
}

describe("virt-controller processes: kill -9 of the leader while a replica set scales up", () => {
  let cluster: VirtTestCluster;
  const replicas: Replica[] = [];

  before(async () => {
    cluster = await startVirtTestCluster();
    const serving = await issueLoopbackServingCertificate();
    await writeServingSecret(
      cluster.client,
      KUBEVIRT_NAMESPACE,
      CERTIFICATE_SECRETS.controllerServer,
      serving,
    );
  });
  after(async () => {
    for (const { child } of replicas)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await cluster?.close();
  });

  const countVmis = async () =>
    (await cluster.client.resource(vmiKind).list({ namespace: NAMESPACE })).items.filter(
      (vmi) => !vmi.metadata?.deletionTimestamp,
    ).length;

  test(`${REPLICAS} replicas, the leader killed with -9 once the first VMIs exist (its creates in flight): exactly ${REPLICAS}`, async (t) => {
    replicas.push(
      await startReplica(cluster.api.kubeconfigPath, "replica-a"),
      await startReplica(cluster.api.kubeconfigPath, "replica-b"),
    );
    const leaderIdentity = await eventually("a leader", async () => {
      const lease = await cluster.client
        .resource(leaseKind)
        .get({ namespace: KUBEVIRT_NAMESPACE, name: "virt-controller" });
      return lease.spec?.holderIdentity ?? undefined;
    });
    const leader = replicas.find((replica) => replica.identity === leaderIdentity);
    assert.ok(leader, `the leader ${leaderIdentity} is one of ours`);

    await cluster.client.resource(vmirsKind).create({
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstanceReplicaSet",
      metadata: { name: "fleet", namespace: NAMESPACE },
      spec: {
        replicas: REPLICAS,
        selector: { matchLabels: { app: "fleet" } },
        template: { metadata: { labels: { app: "fleet" } }, spec: smallVmiSpec() },
      },
    });
    await eventually(
      "the leader's first VMIs",
      async () => ((await countVmis()) > 0 ? true : undefined),
      10_000,
    );
    leader.child.kill("SIGKILL");
    await leader.exited;
    t.diagnostic(`killed the leader with ${await countVmis()} of ${REPLICAS} VMIs created`);

    await eventually(
      `${REPLICAS} VMIs`,
      async () => ((await countVmis()) === REPLICAS ? true : undefined),
      30_000,
    );
    const survivor = replicas.find((replica) => replica !== leader);
    await eventually("the survivor leads", async () => {
      const lease = await cluster.client
        .resource(leaseKind)
        .get({ namespace: KUBEVIRT_NAMESPACE, name: "virt-controller" });
      return lease.spec?.holderIdentity === survivor?.identity ? true : undefined;
    });
    // The new leader has looked at the replica set (its status counts them all): still exactly so many.
    await eventually("the status to count them", async () => {
      const rs = await cluster.client.resource(vmirsKind).get({ namespace: NAMESPACE, name: "fleet" });
      return rs.status?.replicas === REPLICAS ? true : undefined;
    });
    await sleep(1000);
    assert.equal(await countVmis(), REPLICAS);
  });
});
