import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  dataVolumeKind,
  type StoredVirtualMachine,
  type StoredVirtualMachinePool,
  vmPoolKind,
} from "../../api/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { vmKind } from "../kinds.js";
import { handlerReportsRunning, NAMESPACE, smallVmiSpec, vmiWhere } from "../testing/fixtures.js";
import { startVirtTestCluster, type VirtTestCluster } from "../testing/test-cluster.js";

function poolManifest(
  name: string,
  replicas: number,
  runStrategy: "Always" | "Halted",
): StoredVirtualMachinePool {
  return {
    apiVersion: "pool.kubevirt.io/v1beta1",
    kind: "VirtualMachinePool",
    metadata: { name, namespace: NAMESPACE },
    spec: {
      replicas,
      selector: { matchLabels: { "kubevirt.io/vmpool": name } },
      virtualMachineTemplate: {
        metadata: { labels: { "kubevirt.io/vmpool": name } },
        spec: {
          runStrategy,
          template: { metadata: { labels: { "kubevirt.io/vmpool": name } }, spec: smallVmiSpec() },
        },
      },
    },
  };
}

describe("the VirtualMachinePool controller against the dev API server", () => {
  let cluster: VirtTestCluster;

  before(async () => {
    cluster = await startVirtTestCluster();
    await cluster.startController();
  });
  after(async () => {
    await cluster?.close();
  });

  const pools = () => cluster.client.resource(vmPoolKind);
  const vms = () => cluster.client.resource(vmKind);

  async function poolVms(pool: string): Promise<StoredVirtualMachine[]> {
    const list = await vms().list({ namespace: NAMESPACE, labelSelector: `kubevirt.io/vmpool=${pool}` });
    return list.items.filter((vm) => !vm.metadata?.deletionTimestamp);
  }

  function vmNamesAre(pool: string, expected: string[]): Promise<true> {
    return eventually(`the pool ${pool}'s VMs are ${expected.join(", ")}`, async () => {
      const names = (await poolVms(pool)).map((vm) => vm.metadata?.name ?? "").sort();
      return JSON.stringify(names) === JSON.stringify([...expected].sort()) ? true : undefined;
    });
  }

  async function scale(pool: string, replicas: number): Promise<void> {
    await pools().mergePatch({ namespace: NAMESPACE, name: pool }, { spec: { replicas } });
  }

  test("a pool of 2 makes <pool>-0 and <pool>-1, owned by the pool, with its finalizer; status counts them", async () => {
    await pools().create(poolManifest("web", 2, "Halted"));
    await vmNamesAre("web", ["web-0", "web-1"]);
    const [vm] = await poolVms("web");
    const owner = vm?.metadata?.ownerReferences?.[0];
    assert.equal(owner?.kind, "VirtualMachinePool");
    assert.equal(owner?.apiVersion, "pool.kubevirt.io/v1beta1");
    assert.equal(owner?.controller, true);
    assert.ok(vm?.metadata?.finalizers?.includes("pool.kubevirt.io/finalizer"));
    const pool = await eventually("the pool's status", async () => {
      const current = await pools().get({ namespace: NAMESPACE, name: "web" });
      return current.status?.replicas === 2 ? current : undefined;
    });
    assert.equal(pool.status?.labelSelector, "kubevirt.io/vmpool=web");
    assert.equal(pool.status?.readyReplicas, 0, "halted VMs are not ready");
    assert.ok(pool.metadata?.finalizers?.includes("pool.kubevirt.io/finalizer"));
  });

  test("scale to 1 and back to 2 keeps the names stable", async () => {
    await scale("web", 1);
    const [left] = await waitForOne("web");
    assert.ok(left === "web-0" || left === "web-1", `${left} is one of the two`);
    await scale("web", 2);
    await vmNamesAre("web", ["web-0", "web-1"]);
  });

  /** After a scale to 1 from {web-0, web-1} one of them remains (KubeVirt picks at random). */
  async function waitForOne(pool: string): Promise<string[]> {
    return eventually(`one VM left in ${pool}`, async () => {
      const all = await vms().list({ namespace: NAMESPACE, labelSelector: `kubevirt.io/vmpool=${pool}` });
      return all.items.length === 1 ? all.items.map((vm) => vm.metadata?.name ?? "") : undefined;
    });
  }

  test("paused: the pool stops scaling and says so", async () => {
    await pools().mergePatch({ namespace: NAMESPACE, name: "web" }, { spec: { paused: true, replicas: 3 } });
    const paused = await eventually("ReplicaPaused", async () => {
      const current = await pools().get({ namespace: NAMESPACE, name: "web" });
      return current.status?.conditions?.some((c) => c.type === "ReplicaPaused" && c.status === "True")
        ? current
        : undefined;
    });
    assert.equal(paused.status?.replicas, 2);
    assert.equal((await poolVms("web")).length, 2, "no VM made while paused");
    await pools().mergePatch({ namespace: NAMESPACE, name: "web" }, { spec: { paused: false, replicas: 2 } });
  });

  test("a template edit reaches the VMs (opportunistic update)", async () => {
    const pool = await pools().get({ namespace: NAMESPACE, name: "web" });
    const template = structuredClone(pool.spec.virtualMachineTemplate);
    template.metadata = { ...template.metadata, annotations: { release: "2" } };
    await pools().mergePatch(
      { namespace: NAMESPACE, name: "web" },
      { spec: { virtualMachineTemplate: template } },
    );
    await eventually("both VMs carry the new template's annotation", async () => {
      const list = await poolVms("web");
      return list.length === 2 && list.every((vm) => vm.metadata?.annotations?.release === "2")
        ? true
        : undefined;
    });
  });

  test("running VMs count as ready replicas", async () => {
    await pools().create(poolManifest("run", 1, "Always"));
    await vmNamesAre("run", ["run-0"]);
    await vmiWhere(cluster.client, "run-0", "Scheduled", (vmi) => vmi.status?.phase === "Scheduled");
    await handlerReportsRunning(cluster.client, "run-0");
    await eventually("readyReplicas 1", async () => {
      const current = await pools().get({ namespace: NAMESPACE, name: "run" });
      return current.status?.readyReplicas === 1 ? true : undefined;
    });
  });

  test("dataVolumeTemplates are renamed <name>-<index> and the volumes on them rewritten", async () => {
    const manifest = poolManifest("disks", 2, "Halted");
    const vmSpec = manifest.spec.virtualMachineTemplate.spec;
    vmSpec.dataVolumeTemplates = [
      {
        metadata: { name: "root" },
        spec: { source: { blank: {} }, storage: { resources: { requests: { storage: "64Mi" } } } },
      },
    ];
    vmSpec.template.spec = smallVmiSpec({
      volumes: [{ name: "containerdisk", dataVolume: { name: "root" } }],
    });
    await pools().create(manifest);
    await vmNamesAre("disks", ["disks-0", "disks-1"]);
    for (const index of [0, 1]) {
      const vm = await vms().get({ namespace: NAMESPACE, name: `disks-${index}` });
      assert.equal(vm.spec.dataVolumeTemplates?.[0]?.metadata?.name, `root-${index}`);
      assert.equal(vm.spec.template.spec?.volumes?.[0]?.dataVolume?.name, `root-${index}`);
      await eventually(`the DataVolume root-${index}`, () =>
        cluster.client.resource(dataVolumeKind).get({ namespace: NAMESPACE, name: `root-${index}` }),
      );
    }
  });

  test("two controllers at once (a restarted one and a stale one) still make exactly the named VMs", async () => {
    const second = await cluster.startController();
    try {
      await pools().create(poolManifest("twice", 3, "Halted"));
      await vmNamesAre("twice", ["twice-0", "twice-1", "twice-2"]);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const all = await vms().list({ namespace: NAMESPACE, labelSelector: "kubevirt.io/vmpool=twice" });
      assert.deepEqual(all.items.map((vm) => vm.metadata?.name).sort(), ["twice-0", "twice-1", "twice-2"]);
    } finally {
      await second.stop();
    }
  });

  test("a VM relabelled out of the selector is released (no owner, no finalizer) and replaced", async () => {
    await pools().create(poolManifest("keep", 1, "Halted"));
    await vmNamesAre("keep", ["keep-0"]);
    await vms().mergePatch(
      { namespace: NAMESPACE, name: "keep-0" },
      { metadata: { labels: { "kubevirt.io/vmpool": "elsewhere" } } },
    );
    await vmNamesAre("keep", ["keep-1"]);
    const released = await eventually("keep-0 released", async () => {
      const vm = await vms().get({ namespace: NAMESPACE, name: "keep-0" });
      return (vm.metadata?.ownerReferences ?? []).length === 0 ? vm : undefined;
    });
    assert.deepEqual(released.metadata?.finalizers ?? [], []);
    await vms().delete({ namespace: NAMESPACE, name: "keep-0" });
  });

  test("deleting the pool deletes its VMs", async () => {
    await pools().delete({ namespace: NAMESPACE, name: "web" });
    await eventually("the pool and its VMs gone", async () => {
      const left = await vms().list({ namespace: NAMESPACE, labelSelector: "kubevirt.io/vmpool=web" });
      const pool = await pools()
        .get({ namespace: NAMESPACE, name: "web" })
        .catch(() => undefined);
      return left.items.length === 0 && pool === undefined ? true : undefined;
    });
  });
});
