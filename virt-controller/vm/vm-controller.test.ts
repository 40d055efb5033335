import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { VirtualMachineVolumeRequest } from "../../api/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { vmKind } from "../kinds.js";
import {
  findVmi,
  getVm,
  handlerReleases,
  handlerReportsFinished,
  handlerReportsRunning,
  launcherPods,
  NAMESPACE,
  smallVmiSpec,
  vmiGone,
  vmiWhere,
  vmManifest,
  vmWhere,
} from "../testing/fixtures.js";
import { NODE_NAME, quietLog, startVirtTestCluster, type VirtTestCluster } from "../testing/test-cluster.js";
import { VmiWriteCounter } from "../testing/vmi-write-counter.js";

describe("the VM controller against the dev API server, scheduler and a test kubelet", () => {
  let cluster: VirtTestCluster;
  let writes: VmiWriteCounter;

  before(async () => {
    cluster = await startVirtTestCluster();
    writes = await VmiWriteCounter.start(cluster.client, quietLog, NAMESPACE);
    await cluster.startController({ startBackoff: { intervalMs: 1000, maxDelayMs: 4000 } });
  });
  after(async () => {
    await writes?.stop();
    await cluster?.close();
  });

  const vms = () => cluster.client.resource(vmKind);

  test("Always: a VMI, one launcher pod, Scheduled on the node; the handler's Running makes the VM Running and Ready, in 3 VMI writes", async () => {
    await vms().create(vmManifest("always", { runStrategy: "Always" }));
    const vmi = await vmiWhere(cluster.client, "always", "Scheduled", (v) => v.status?.phase === "Scheduled");
    assert.equal(vmi.status?.nodeName, NODE_NAME);
    assert.equal(vmi.metadata?.labels?.["kubevirt.io/nodeName"], NODE_NAME);
    assert.equal(vmi.metadata?.labels?.["kubevirt.io/vm"], "always");
    assert.equal(vmi.metadata?.labels?.app, "always", "the template's labels");
    assert.deepEqual(vmi.metadata?.finalizers, ["kubevirt.io/virtualMachineControllerFinalize"]);
    const owner = vmi.metadata?.ownerReferences?.[0];
    assert.equal(owner?.kind, "VirtualMachine");
    assert.equal(owner?.controller, true);
    assert.ok(vmi.spec.domain.firmware?.uuid, "a stable firmware UUID");
    assert.equal(vmi.spec.domain.cpu?.sockets, 1, "KubeVirt's defaults applied");
    const pods = await launcherPods(cluster.client, vmi.metadata?.uid ?? "");
    assert.equal(pods.length, 1);
    const pod = pods[0];
    assert.equal(
      pod?.spec?.containers[0]?.resources?.requests?.cpu,
      "100m",
      "1 vCPU ÷ the default ratio of 10",
    );
    assert.match(pod?.metadata?.name ?? "", /^virt-launcher-always-[a-z0-9]{5}$/);
    assert.deepEqual(vmi.status?.activePods, { [pod?.metadata?.uid ?? ""]: NODE_NAME });
    assert.equal(vmi.status?.qosClass, "Burstable");
    assert.deepEqual(
      vmi.status?.phaseTransitionTimestamps?.map((entry) => entry.phase),
      ["Scheduling", "Scheduled"],
    );
    assert.equal((await getVm(cluster.client, "always")).status?.printableStatus, "Starting");

    await handlerReportsRunning(cluster.client, "always");
    const vm = await vmWhere(
      cluster.client,
      "always",
      "Running and Ready",
      (v) => v.status?.printableStatus === "Running" && v.status.ready === true,
    );
    assert.equal(vm.status?.created, true);
    assert.equal(vm.status?.runStrategy, "Always");
    assert.equal(vm.status?.observedGeneration, 1);
    assert.equal(vm.status?.desiredGeneration, 1);
    assert.equal(vm.status?.conditions?.find((c) => c.type === "Ready")?.status, "True");
    assert.equal(
      writes.writesUntil(vmi.metadata?.uid ?? "", "Running"),
      3,
      `writes: ${writes.phasesOf(vmi.metadata?.uid ?? "").join(", ")}`,
    );
  });

  test("10 VMs created at once: every VMI reaches Running in 3 writes (Scheduling, Scheduled, the handler's Running)", async (t) => {
    const names = Array.from({ length: 10 }, (_, index) => `batch-${index}`);
    await Promise.all(names.map((name) => vms().create(vmManifest(name, { runStrategy: "Always" }))));
    const uids = await Promise.all(
      names.map(async (name) => {
        const vmi = await vmiWhere(cluster.client, name, "Scheduled", (v) => v.status?.phase === "Scheduled");
        await handlerReportsRunning(cluster.client, name);
        return vmi.metadata?.uid ?? "";
      }),
    );
    const counts = await eventually("every VMI Running", () => {
      const found = uids.map((uid) => writes.writesUntil(uid, "Running"));
      return found.every((count) => count !== undefined) ? found : undefined;
    });
    t.diagnostic(`VMI writes until Running: ${counts.join(" ")}`);
    assert.deepEqual(
      counts,
      uids.map(() => 3),
    );
  });

  test("Halted (and running: false) deletes the VMI with its grace period; once the handler releases it the VM is Stopped", async () => {
    await vms().create(vmManifest("halting", { running: true }));
    const vmi = await vmiWhere(
      cluster.client,
      "halting",
      "Scheduled",
      (v) => v.status?.phase === "Scheduled",
    );
    await vms().mergePatch({ namespace: NAMESPACE, name: "halting" }, { spec: { running: false } });
    await vmiWhere(
      cluster.client,
      "halting",
      "being deleted",
      (v) => v.metadata?.deletionTimestamp !== undefined,
    );
    await vmWhere(cluster.client, "halting", "Stopping", (v) => v.status?.printableStatus === "Stopping");
    await handlerReleases(cluster.client, "halting");
    await vmiGone(cluster.client, "halting");
    const vm = await vmWhere(
      cluster.client,
      "halting",
      "Stopped",
      (v) => v.status?.printableStatus === "Stopped",
    );
    assert.equal(vm.status?.created, false);
    assert.equal(vm.status?.ready, false);
    assert.equal(vm.status?.conditions?.find((c) => c.type === "Ready")?.reason, "VMINotExists");
    await waitForNoPods(vmi.metadata?.uid ?? "");

    await vms().mergePatch(
      { namespace: NAMESPACE, name: "halting" },
      { spec: { running: null, runStrategy: "Halted" } },
    );
    await sleep(300);
    assert.equal(await findVmi(cluster.client, "halting"), undefined, "Halted creates nothing");
  });

  test("Always restarts a VMI that succeeded or failed; RerunOnFailure restarts only one that failed", async () => {
    await vms().create(vmManifest("always-restarts", { runStrategy: "Always" }));
    await vms().create(vmManifest("rerun", { runStrategy: "RerunOnFailure" }));
    for (const [name, phase, restarted] of [
      ["always-restarts", "Succeeded", true],
      ["always-restarts", "Failed", true],
      ["rerun", "Failed", true],
      ["rerun", "Succeeded", false],
    ] as const) {
      const first = await runningVmi(name);
      await handlerReportsFinished(cluster.client, name, phase);
      await vmiWhere(
        cluster.client,
        name,
        "deleted by the VM controller",
        (v) => v.metadata?.deletionTimestamp !== undefined,
      );
      await waitForNoPods(first, "the finished VMI's pod is deleted");
      await handlerReleases(cluster.client, name);
      await vmiGone(cluster.client, name, first);
      if (restarted) {
        const second = await vmiWhere(cluster.client, name, "a new VMI", (v) => v.metadata?.uid !== first);
        assert.notEqual(second.metadata?.uid, first);
      } else {
        await vmWhere(cluster.client, name, "Stopped", (v) => v.status?.printableStatus === "Stopped");
        await sleep(300);
        assert.equal(await findVmi(cluster.client, name), undefined, `${name} stays stopped after ${phase}`);
      }
    }
    const rerun = await getVm(cluster.client, "rerun");
    assert.equal(
      rerun.status?.stateChangeRequests,
      undefined,
      "the Start request added after the failure was cleared",
    );
  });

  test("a launcher that keeps failing before the VM runs: CrashLoopBackOff, restarts spaced by the back-off", async () => {
    cluster.kubelet.behave("crashy", "fail");
    await vms().create(vmManifest("crashy", { runStrategy: "Always" }));
    const looping = await vmWhere(
      cluster.client,
      "crashy",
      "CrashLoopBackOff",
      (v) => v.status?.printableStatus === "CrashLoopBackOff",
    );
    assert.equal(looping.status?.startFailure?.consecutiveFailCount, 1);
    const again = await vmWhere(
      cluster.client,
      "crashy",
      "a second failure",
      (v) => (v.status?.startFailure?.consecutiveFailCount ?? 0) >= 2,
    );
    assert.ok(again.status?.startFailure?.retryAfterTimestamp);
    await vms().mergePatch({ namespace: NAMESPACE, name: "crashy" }, { spec: { runStrategy: "Halted" } });
    const halted = await vmWhere(
      cluster.client,
      "crashy",
      "Stopped",
      (v) => v.status?.printableStatus === "Stopped",
    );
    assert.equal(halted.status?.startFailure, undefined, "Halted clears the back-off");
  });

  test("an unschedulable launcher pod shows as ErrorUnschedulable, an image that cannot be pulled as ErrImagePull", async () => {
    await vms().create(
      vmManifest("picky", { runStrategy: "Always" }, smallVmiSpec({ nodeSelector: { disk: "ssd" } })),
    );
    const vm = await vmWhere(
      cluster.client,
      "picky",
      "ErrorUnschedulable",
      (v) => v.status?.printableStatus === "ErrorUnschedulable",
    );
    const scheduled = vm.status?.conditions?.find((c) => c.type === "PodScheduled");
    assert.equal(scheduled?.status, "False");
    assert.match(scheduled?.message ?? "", /didn't match Pod's node affinity\/selector/);

    cluster.kubelet.behave("pully", "pull-error");
    await vms().create(vmManifest("pully", { runStrategy: "Always" }));
    await vmWhere(
      cluster.client,
      "pully",
      "ErrImagePull",
      (v) => v.status?.printableStatus === "ErrImagePull",
    );

    // Stopping a VM that never reached a node needs no virt-handler: the controller releases the VMI.
    for (const name of ["picky", "pully"]) {
      await vms().mergePatch({ namespace: NAMESPACE, name }, { spec: { runStrategy: "Halted" } });
      await vmWhere(cluster.client, name, "Stopped", (v) => v.status?.printableStatus === "Stopped");
    }
  });

  test("a VM whose disk names no volume gets a Failure condition naming the disk, and nothing is created", async () => {
    const spec = smallVmiSpec();
    spec.domain.devices.disks = [...(spec.domain.devices.disks ?? []), { name: "rootdisk", disk: {} }];
    await vms().create(vmManifest("broken", { runStrategy: "Always" }, spec));
    const vm = await vmWhere(
      cluster.client,
      "broken",
      "a Failure condition",
      (v) => v.status?.conditions?.some((c) => c.type === "Failure") ?? false,
    );
    const failure = vm.status?.conditions?.find((c) => c.type === "Failure");
    assert.equal(failure?.status, "True");
    assert.equal(failure?.reason, "InvalidSpec");
    assert.match(
      failure?.message ?? "",
      /spec\.template\.spec\.domain\.devices\.disks\[1\]\.name 'rootdisk' not found/,
    );
    assert.equal(vm.status?.printableStatus, "Stopped");
    await sleep(300);
    assert.equal(await findVmi(cluster.client, "broken"), undefined);

    spec.domain.devices.disks = spec.domain.devices.disks.filter((disk) => disk.name !== "rootdisk");
    await vms().mergePatch({ namespace: NAMESPACE, name: "broken" }, { spec: { template: { spec } } });
    await vmiWhere(cluster.client, "broken", "created once the spec is fixed", () => true);
    // The write that clears the Failure may precede the one that sees the new VMI in the cache.
    await vmWhere(
      cluster.client,
      "broken",
      "no Failure, and no longer Stopped",
      (v) =>
        !v.status?.conditions?.some((c) => c.type === "Failure") && v.status?.printableStatus !== "Stopped",
    );
  });

  test("Manual: Start and Stop requests in status.stateChangeRequests are honoured and cleared", async () => {
    await vms().create(vmManifest("manual", { runStrategy: "Manual" }));
    await vmWhere(cluster.client, "manual", "Stopped", (v) => v.status?.printableStatus === "Stopped");
    assert.equal(await findVmi(cluster.client, "manual"), undefined);
    await requestStateChange("manual", [{ action: "Start" }]);
    const vmi = await vmiWhere(cluster.client, "manual", "started", () => true);
    await vmWhere(
      cluster.client,
      "manual",
      "the Start request cleared",
      (v) => v.status?.stateChangeRequests === undefined,
    );
    await requestStateChange("manual", [{ action: "Stop", uid: vmi.metadata?.uid ?? "" }]);
    await vmiWhere(
      cluster.client,
      "manual",
      "being deleted",
      (v) => v.metadata?.deletionTimestamp !== undefined || v.status?.nodeName === undefined,
    );
    const current = await findVmi(cluster.client, "manual");
    if (current?.status?.nodeName) await handlerReleases(cluster.client, "manual");
    await vmiGone(cluster.client, "manual");
    await vmWhere(
      cluster.client,
      "manual",
      "Stopped, the Stop request cleared",
      (v) => v.status?.printableStatus === "Stopped" && v.status.stateChangeRequests === undefined,
    );
  });

  test("Halted with a Start request becomes Always, as virtctl start does", async () => {
    await vms().create(vmManifest("woken", { runStrategy: "Halted" }));
    await vmWhere(cluster.client, "woken", "Stopped", (v) => v.status?.printableStatus === "Stopped");
    await requestStateChange("woken", [{ action: "Start" }]);
    const vm = await vmWhere(
      cluster.client,
      "woken",
      "Always, the request cleared",
      (v) => v.spec.runStrategy === "Always" && v.status?.stateChangeRequests === undefined,
    );
    assert.equal(vm.status?.created, true);
  });

  test("volume requests: an add lands in the template and the running VMI, hotpluggable, and is cleared; a remove likewise; the VM stays Running", async () => {
    await vms().create(vmManifest("hotplug", { runStrategy: "Always" }));
    await runningVmi("hotplug");
    await requestVolumes("hotplug", [
      {
        addVolumeOptions: {
          name: "data",
          disk: { name: "data", disk: { bus: "scsi" } },
          volumeSource: { persistentVolumeClaim: { claimName: "data-claim" } },
        },
      },
    ]);
    const added = await vmWhere(
      cluster.client,
      "hotplug",
      "the add request done and cleared",
      (v) => v.status?.volumeRequests === undefined && hasVolume(v.spec.template.spec, "data"),
      15_000,
    );
    assert.deepEqual(
      added.spec.template.spec?.volumes?.find((volume) => volume.name === "data"),
      { name: "data", persistentVolumeClaim: { claimName: "data-claim", hotpluggable: true } },
    );
    assert.deepEqual(
      added.spec.template.spec?.domain.devices.disks?.find((disk) => disk.name === "data"),
      { name: "data", disk: { bus: "scsi" } },
    );
    const vmi = await findVmi(cluster.client, "hotplug");
    assert.ok(vmi && hasVolume(vmi.spec, "data"), "the running VMI has the volume and the disk");
    assert.equal(
      vmi.spec.volumes?.find((volume) => volume.name === "data")?.persistentVolumeClaim?.hotpluggable,
      true,
    );
    assert.equal(added.status?.printableStatus, "Running");
    assert.equal(
      added.status?.conditions?.some((condition) => condition.type === "RestartRequired") ?? false,
      false,
    );

    await requestVolumes("hotplug", [{ removeVolumeOptions: { name: "data" } }]);
    const removed = await vmWhere(
      cluster.client,
      "hotplug",
      "the remove request done and cleared",
      (v) =>
        v.status?.volumeRequests === undefined &&
        !(v.spec.template.spec?.volumes ?? []).some((volume) => volume.name === "data"),
      15_000,
    );
    assert.equal(
      (removed.spec.template.spec?.domain.devices.disks ?? []).some((disk) => disk.name === "data"),
      false,
    );
    const unplugged = await findVmi(cluster.client, "hotplug");
    assert.equal(
      (unplugged?.spec.volumes ?? []).some((volume) => volume.name === "data"),
      false,
    );
    assert.equal(
      (unplugged?.spec.domain.devices.disks ?? []).some((disk) => disk.name === "data"),
      false,
    );
    assert.equal(unplugged?.metadata?.uid, vmi.metadata?.uid, "the same VMI: no restart");
  });

  test("a volume request on a stopped VM changes the template only; the VMI it starts has the volume", async () => {
    await vms().create(vmManifest("hotplug-stopped", { runStrategy: "Halted" }));
    await vmWhere(
      cluster.client,
      "hotplug-stopped",
      "Stopped",
      (v) => v.status?.printableStatus === "Stopped",
    );
    await requestVolumes("hotplug-stopped", [
      {
        addVolumeOptions: {
          name: "extra",
          disk: { name: "extra", disk: { bus: "scsi" } },
          volumeSource: { dataVolume: { name: "extra-dv" } },
        },
      },
    ]);
    const vm = await vmWhere(
      cluster.client,
      "hotplug-stopped",
      "the request done and cleared",
      (v) => v.status?.volumeRequests === undefined && hasVolume(v.spec.template.spec, "extra"),
    );
    assert.deepEqual(vm.spec.template.spec?.volumes?.find((volume) => volume.name === "extra")?.dataVolume, {
      name: "extra-dv",
      hotpluggable: true,
    });
    assert.equal(await findVmi(cluster.client, "hotplug-stopped"), undefined);
    await requestStateChange("hotplug-stopped", [{ action: "Start" }]);
    const vmi = await vmiWhere(cluster.client, "hotplug-stopped", "created", () => true);
    assert.equal(vmi.spec.volumes?.find((volume) => volume.name === "extra")?.dataVolume?.hotpluggable, true);
  });

  async function runningVmi(name: string): Promise<string> {
    const vmi = await vmiWhere(
      cluster.client,
      name,
      "Scheduled",
      (v) => v.status?.phase === "Scheduled" && !v.metadata?.deletionTimestamp,
    );
    await handlerReportsRunning(cluster.client, name);
    await vmWhere(cluster.client, name, "Running", (v) => v.status?.printableStatus === "Running");
    return vmi.metadata?.uid ?? "";
  }

  async function waitForNoPods(vmiUid: string, what = "the launcher pod gone"): Promise<void> {
    await eventually(what, async () =>
      (await launcherPods(cluster.client, vmiUid)).length === 0 ? true : undefined,
    );
  }

  async function requestVolumes(name: string, requests: VirtualMachineVolumeRequest[]): Promise<void> {
    await vms().mergePatch(
      { namespace: NAMESPACE, name },
      { status: { volumeRequests: requests } },
      { subresource: "status" },
    );
  }

  async function requestStateChange(
    name: string,
    requests: { action: "Start" | "Stop"; uid?: string }[],
  ): Promise<void> {
    await vms().mergePatch(
      { namespace: NAMESPACE, name },
      { status: { stateChangeRequests: requests } },
      { subresource: "status" },
    );
  }
});

function hasVolume(
  spec: { volumes?: { name: string }[]; domain: { devices: { disks?: { name: string }[] } } } | undefined,
  name: string,
): boolean {
  return (
    (spec?.volumes ?? []).some((volume) => volume.name === name) &&
    (spec?.domain.devices.disks ?? []).some((disk) => disk.name === name)
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
