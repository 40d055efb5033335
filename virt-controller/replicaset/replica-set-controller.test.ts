import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { StoredVirtualMachineInstanceReplicaSet } from "../../api/index.js";
import { vmirsKind } from "../../api/index.js";
import { eventKind, Manager, type ManagerExit, systemClock } from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { type VirtualMachineInstance, vmiKind } from "../kinds.js";
import {
  handlerReleases,
  handlerReportsFinished,
  handlerReportsRunning,
  NAMESPACE,
  smallVmiSpec,
  vmiManifest,
  vmiWhere,
} from "../testing/fixtures.js";
import {
  KUBEVIRT_NAMESPACE,
  quietLog,
  startVirtTestCluster,
  type VirtTestCluster,
} from "../testing/test-cluster.js";
import { addVirtControllers } from "../virt-controller.js";
import { inDeletionOrder } from "./scale-down-order.js";

type ReplicaSet = StoredVirtualMachineInstanceReplicaSet;

/** A replica set in the shape of KubeVirt's examples/vmi-replicaset-cirros.yaml. */
function replicaSetManifest(name: string, replicas: number): ReplicaSet {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstanceReplicaSet",
    metadata: { name, namespace: NAMESPACE },
    spec: {
      replicas,
      selector: { matchLabels: { "kubevirt.io/vmReplicaSet": name } },
      template: { metadata: { labels: { "kubevirt.io/vmReplicaSet": name } }, spec: smallVmiSpec() },
    },
  };
}

describe("the VMI replica set controller against the dev API server, scheduler and a test kubelet", () => {
  let cluster: VirtTestCluster;
  let controller: { stop(): Promise<ManagerExit> } | undefined;

  /** virt-controller in-process: a fresh Manager, caches and expectations each time (as a new process). */
  const startController = async (replicaSetBurst?: number) => {
    const manager = new Manager({
      name: "virt-controller",
      kubeConfig: cluster.api.kubeConfig(),
      log: quietLog,
      gracefulShutdownMs: 5000,
    });
    addVirtControllers(manager, {
      namespace: KUBEVIRT_NAMESPACE,
      launcherImage: "virt-launcher",
      clock: systemClock,
      ...(replicaSetBurst ? { replicaSetBurst } : {}),
    });
    await manager.start();
    controller = { stop: () => manager.stop().then(() => manager.done) };
  };

  before(async () => {
    cluster = await startVirtTestCluster();
    await startController();
  });
  after(async () => {
    await controller?.stop();
    await cluster?.close();
  });

  const replicaSets = () => cluster.client.resource(vmirsKind);
  const readReplicaSet = (name: string) => replicaSets().get({ namespace: NAMESPACE, name });
  /** The replica set's VMIs (by owner uid), being deleted or not. */
  const vmisOf = async (name: string): Promise<VirtualMachineInstance[]> => {
    const uid = (await readReplicaSet(name)).metadata?.uid;
    const list = await cluster.client.resource(vmiKind).list({ namespace: NAMESPACE });
    return list.items.filter((vmi) =>
      vmi.metadata?.ownerReferences?.some((owner) => owner.controller && owner.uid === uid),
    );
  };
  const activeVmisOf = async (name: string) =>
    (await vmisOf(name)).filter(
      (vmi) => !vmi.metadata?.deletionTimestamp && !["Succeeded", "Failed"].includes(vmi.status?.phase ?? ""),
    );
  const waitForActive = (name: string, count: number, what = `${count} active VMIs`) =>
    eventually(
      `replica set ${name}: ${what}`,
      async () => {
        const active = await activeVmisOf(name);
        return active.length === count ? active : undefined;
      },
      20_000,
    );
  /** `count` active VMIs, each on the node (Scheduled, or Running once the handler said so). */
  const scheduledVmis = (name: string, count: number) =>
    eventually(
      `replica set ${name}: ${count} VMIs Scheduled or Running`,
      async () => {
        const active = await activeVmisOf(name);
        const placed = active.every((vmi) => ["Scheduled", "Running"].includes(vmi.status?.phase ?? ""));
        return active.length === count && placed ? active : undefined;
      },
      20_000,
    );
  const statusWhere = (name: string, what: string, check: (rs: ReplicaSet) => boolean) =>
    eventually(
      `replica set ${name}: ${what}`,
      async () => {
        const rs = await readReplicaSet(name);
        return check(rs) ? rs : undefined;
      },
      20_000,
    );
  /** virt-handler's part once a VMI is deleted: the domain is gone, its finalizer goes. */
  const releaseDeleted = async (name: string) => {
    for (const vmi of await vmisOf(name)) {
      if (vmi.metadata?.deletionTimestamp) await handlerReleases(cluster.client, vmi.metadata?.name ?? "");
    }
  };
  const eventsOf = async (name: string) =>
    (await cluster.client.resource(eventKind).list({ namespace: NAMESPACE })).items.filter(
      (event) =>
        event.involvedObject?.name === name &&
        event.involvedObject.kind === "VirtualMachineInstanceReplicaSet",
    );
  /** The replica set's events of `reason`, once there are `count` of them. */
  const eventsWhere = (name: string, reason: string, count: number) =>
    eventually(`replica set ${name}: ${count} ${reason} events`, async () => {
      const found = (await eventsOf(name)).filter((event) => event.reason === reason);
      return found.length >= count ? found : undefined;
    });
  const kubectl = async (...args: string[]) => {
    const result = await cluster.api.kubectl(args);
    assert.equal(result.code, 0, `kubectl ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };

  test("replicas 3: three VMIs named after the replica set, owned and labelled by it; the status counts them, Ready ones apart", async () => {
    await replicaSets().create(replicaSetManifest("web", 3));
    const vmis = await scheduledVmis("web", 3);
    for (const vmi of vmis) {
      assert.match(
        vmi.metadata?.name ?? "",
        /^web[a-z0-9]{5}$/,
        "generateName: the replica set's name, as is",
      );
      assert.equal(vmi.metadata?.labels?.["kubevirt.io/vmReplicaSet"], "web");
      const owner = vmi.metadata?.ownerReferences?.[0];
      assert.equal(owner?.kind, "VirtualMachineInstanceReplicaSet");
      assert.equal(owner?.controller, true);
      assert.equal(owner?.blockOwnerDeletion, true);
    }
    await handlerReportsRunning(cluster.client, vmis[0]?.metadata?.name ?? "");
    await handlerReportsRunning(cluster.client, vmis[1]?.metadata?.name ?? "");
    const rs = await statusWhere(
      "web",
      "3 replicas, 2 ready",
      (r) => r.status?.replicas === 3 && r.status.readyReplicas === 2,
    );
    assert.equal(rs.status?.labelSelector, "kubevirt.io/vmReplicaSet=web");
    const created = await eventsWhere("web", "SuccessfulCreate", 3);
    assert.equal(created.length, 3);
    assert.match(
      created[0]?.message ?? "",
      /^Started the virtual machine by creating the new virtual machine instance web/,
    );
    const table = await kubectl("get", "vmirs", "web", "-n", NAMESPACE);
    assert.match(table, /NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/);
    assert.match(table, /web\s+3\s+3\s+2\s+/);
  });

  test("kubectl scale --replicas=1: the not yet running VMI goes first, then the newest Ready one; back to 3 makes two new", async () => {
    const before = await activeVmisOf("web");
    const expectedSurvivor = inDeletionOrder(before).at(-1);
    assert.equal(expectedSurvivor?.status?.phase, "Running", "a Ready VMI stays");
    assert.match(await kubectl("scale", "vmirs", "web", "--replicas=1", "-n", NAMESPACE), /scaled/);
    const [survivor] = await waitForActive("web", 1);
    assert.equal(survivor?.metadata?.name, expectedSurvivor?.metadata?.name);
    await statusWhere("web", "1 replica", (r) => r.status?.replicas === 1 && r.status.readyReplicas === 1);
    const deletes = await eventsWhere("web", "SuccessfulDelete", 2);
    assert.equal(deletes.length, 2);
    assert.match(
      deletes[0]?.message ?? "",
      /^Stopped the virtual machine by deleting the virtual machine instance /,
    );
    await releaseDeleted("web");

    await kubectl("scale", "vmirs", "web", "--replicas=3", "-n", NAMESPACE);
    const again = await scheduledVmis("web", 3);
    assert.ok(
      again.some((vmi) => vmi.metadata?.uid === survivor?.metadata?.uid),
      "the survivor stays",
    );
    await statusWhere("web", "3 replicas", (r) => r.status?.replicas === 3);
    const scale = JSON.parse(
      await kubectl(
        "get",
        "--raw",
        `/apis/kubevirt.io/v1/namespaces/${NAMESPACE}/virtualmachineinstancereplicasets/web/scale`,
      ),
    ) as { spec?: { replicas?: number }; status?: { replicas?: number; selector?: string } };
    assert.deepEqual(
      [scale.spec?.replicas, scale.status?.replicas, scale.status?.selector],
      [3, 3, "kubevirt.io/vmReplicaSet=web"],
      "the scale subresource: what kubectl scale and HPAs read",
    );
  });

  test("a VMI deleted by hand, or one that finished, is replaced", async () => {
    const [first, second] = await activeVmisOf("web");
    await cluster.client
      .resource(vmiKind)
      .delete({ namespace: NAMESPACE, name: first?.metadata?.name ?? "" });
    await handlerReportsFinished(cluster.client, second?.metadata?.name ?? "", "Failed");
    const now = await scheduledVmis("web", 3);
    const uids = now.map((vmi) => vmi.metadata?.uid);
    assert.ok(!uids.includes(first?.metadata?.uid) && !uids.includes(second?.metadata?.uid));
    await eventually("the finished VMI deleted", async () =>
      (await eventsOf("web")).some(
        (event) => event.message === `Deleted finished virtual machine: ${second?.metadata?.uid ?? ""}`,
      )
        ? true
        : undefined,
    );
    await releaseDeleted("web");
    assert.equal((await activeVmisOf("web")).length, 3);
  });

  test("paused: scaling stops, ReplicaPaused says so; resumed, it scales", async () => {
    await replicaSets().mergePatch(
      { namespace: NAMESPACE, name: "web" },
      { spec: { paused: true, replicas: 1 } },
    );
    const paused = await statusWhere("web", "ReplicaPaused", (r) =>
      (r.status?.conditions ?? []).some((c) => c.type === "ReplicaPaused"),
    );
    const condition = paused.status?.conditions?.find((c) => c.type === "ReplicaPaused");
    assert.equal(condition?.reason, "Paused");
    assert.equal(condition?.message, "Controller got paused");
    await sleep(1000);
    assert.equal((await activeVmisOf("web")).length, 3, "nothing deleted while paused");
    await replicaSets().mergePatch({ namespace: NAMESPACE, name: "web" }, { spec: { paused: false } });
    await waitForActive("web", 1);
    // The reconcile that resumes counts the VMIs before its deletes; the next one counts 1.
    await statusWhere(
      "web",
      "no ReplicaPaused, 1 replica",
      (r) =>
        !(r.status?.conditions ?? []).some((c) => c.type === "ReplicaPaused") && r.status?.replicas === 1,
    );
    const reasons = (await eventsOf("web")).map((event) => event.reason);
    assert.ok(
      reasons.includes("SuccessfulPaused") && reasons.includes("SuccessfulResumed"),
      reasons.join(", "),
    );
    await releaseDeleted("web");
  });

  test("adoption and release: a matching orphan VMI is adopted (one fewer is made); a relabelled one is released and replaced", async () => {
    const orphan = vmiManifest("orphan-1");
    orphan.metadata = { ...orphan.metadata, labels: { "kubevirt.io/vmReplicaSet": "adopter" } };
    await cluster.client.resource(vmiKind).create(orphan);
    // Scheduled by the VMI controller: the shared VMI cache has it before the replica set exists.
    await vmiWhere(cluster.client, "orphan-1", "Scheduled", (vmi) => vmi.status?.phase === "Scheduled");
    await replicaSets().create(replicaSetManifest("adopter", 2));
    const vmis = await scheduledVmis("adopter", 2);
    assert.ok(
      vmis.some((vmi) => vmi.metadata?.name === "orphan-1"),
      "the orphan was adopted",
    );
    await eventsWhere("adopter", "SuccessfulCreate", 1);
    await sleep(500);
    assert.equal(
      (await eventsOf("adopter")).filter((event) => event.reason === "SuccessfulCreate").length,
      1,
    );

    await cluster.client
      .resource(vmiKind)
      .mergePatch(
        { namespace: NAMESPACE, name: "orphan-1" },
        { metadata: { labels: { "kubevirt.io/vmReplicaSet": "elsewhere" } } },
      );
    const released = await eventually("orphan-1 released", async () => {
      const vmi = await cluster.client.resource(vmiKind).get({ namespace: NAMESPACE, name: "orphan-1" });
      return (vmi.metadata?.ownerReferences ?? []).length === 0 ? vmi : undefined;
    });
    assert.equal(released.metadata?.deletionTimestamp, undefined, "released, not deleted");
    const now = await scheduledVmis("adopter", 2);
    assert.ok(!now.some((vmi) => vmi.metadata?.name === "orphan-1"));
  });

  test("a selector that does not match the template's labels (stored without virt-api): no VMI, a Warning says why", async () => {
    const manifest = replicaSetManifest("mismatch", 1);
    manifest.spec.selector = { matchLabels: { "kubevirt.io/vmReplicaSet": "other" } };
    await replicaSets().create(manifest);
    const warning = await eventually("an InvalidSelector event", async () =>
      (await eventsOf("mismatch")).find((event) => event.reason === "InvalidSelector"),
    );
    assert.match(warning.message ?? "", /spec.selector does not match the labels of spec.template.metadata/);
    assert.equal((await vmisOf("mismatch")).length, 0);
  });

  test("a new controller in the middle of a scale-up (one VMI per reconcile) ends with exactly the requested number", async (t) => {
    await controller?.stop();
    await startController(1);
    await replicaSets().create(replicaSetManifest("restart", 4));
    await eventually("the first VMIs", async () =>
      (await vmisOf("restart")).length >= 1 ? true : undefined,
    );
    await controller?.stop();
    const halfway = (await vmisOf("restart")).length;
    t.diagnostic(`${halfway} of 4 VMIs when the first controller stopped`);
    await startController(1);
    await waitForActive("restart", 4);
    await sleep(1500);
    assert.equal(
      (await vmisOf("restart")).length,
      4,
      `exactly 4 (${halfway} when the first controller stopped)`,
    );
    await controller?.stop();
    await startController();
    await sleep(1000);
    assert.equal((await vmisOf("restart")).length, 4, "a third controller, with a fresh cache, makes none");
  });
});
