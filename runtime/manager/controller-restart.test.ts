import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { KubeClient } from "../client/kube-client.js";
import { leaseKind } from "../leader-election/lease.js";
import { configMapKind, installWidgetCrd, widgetKind } from "../testing/test-kinds.js";

const mainScript = fileURLToPath(new URL("../testing/children-controller-main.js", import.meta.url));

interface ControllerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function startControllerProcess(kubeconfigPath: string, identity: string, pause: boolean): ControllerProcess {
  const child = spawn(
    process.execPath,
    [mainScript, kubeconfigPath, identity, ...(pause ? ["--pause-after-first-create"] : [])],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(...chunk.toString().split("\n").filter(Boolean)));
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output, exited };
}

describe("a controller killed mid-reconcile", () => {
  let cluster: TestApiServer;
  let client: KubeClient;
  const processes: ControllerProcess[] = [];

  before(async () => {
    cluster = await startTestApiServer();
    client = KubeClient.fromKubeConfig(cluster.kubeConfig(), { fieldManager: "restart-test" });
    await installWidgetCrd(client);
  });
  after(async () => {
    for (const { child } of processes)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    client?.close();
    await cluster?.close();
  });

  const childrenOf = async (uid: string) =>
    (await client.resource(configMapKind).list({ namespace: "default" })).items.filter((map) =>
      map.metadata?.ownerReferences?.some((owner) => owner.uid === uid),
    );

  test("converges after a restart: no duplicate children, the next leader finishes the work", async () => {
    const parent = await client
      .resource(widgetKind)
      .create({ metadata: { name: "parent", namespace: "default" }, spec: { children: 3 } });
    const uid = parent.metadata?.uid as string;

    const first = startControllerProcess(cluster.kubeconfigPath, "first", true);
    processes.push(first);
    await eventually(
      "the first process to create a child and pause",
      () => (first.output.includes("paused") ? true : undefined),
      15_000,
    );
    first.child.kill("SIGKILL");
    await first.exited;
    assert.equal((await childrenOf(uid)).length, 1, "killed after its first create");

    const second = startControllerProcess(cluster.kubeconfigPath, "second", false);
    processes.push(second);
    await eventually(
      "the second process to finish the parent",
      async () =>
        (await client.resource(widgetKind).get({ namespace: "default", name: "parent" })).status?.phase ===
        "Ready"
          ? true
          : undefined,
      15_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const children = await childrenOf(uid);
    assert.equal(
      children.length,
      3,
      `exactly the children asked for: ${children.map((c) => c.metadata?.name).join(", ")}`,
    );
    const lease = await client.resource(leaseKind).get({ namespace: "default", name: "children-controller" });
    assert.equal(lease.spec?.holderIdentity, "second");
    assert.equal(
      lease.spec?.leaseTransitions,
      1,
      "the lease moved once, after the killed holder's lease expired",
    );

    second.child.kill("SIGTERM");
    assert.equal(await second.exited, 0, "SIGTERM stops the manager gracefully");
    assert.ok(second.output.includes("exit stopped"));
    const released = await client
      .resource(leaseKind)
      .get({ namespace: "default", name: "children-controller" });
    assert.equal(released.spec?.holderIdentity, undefined, "a graceful stop releases the lease");
  });
});
