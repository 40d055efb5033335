import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventKind } from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { podKind, type VirtualMachineInstance, vmiKind } from "../kinds.js";
import {
  attachmentPods,
  boundClaim,
  changeVmi,
  findVmi,
  handlerReleases,
  handlerReportsFinished,
  handlerReportsRunning,
  launcherPods,
  NAMESPACE,
  smallVmiSpec,
  vmiGone,
  vmiManifest,
  vmiWhere,
} from "../testing/fixtures.js";
import {
  type InProcessController,
  NODE_NAME,
  startVirtTestCluster,
  type VirtTestCluster,
} from "../testing/test-cluster.js";

describe("the VMI controller against the dev API server, scheduler and a test kubelet", () => {
  let cluster: VirtTestCluster;
  let controller: InProcessController;

  before(async () => {
    cluster = await startVirtTestCluster();
    controller = await cluster.startController({ launcherImage: "registry.example/virt-launcher:v1" });
  });
  after(async () => cluster?.close());

  const vmis = () => cluster.client.resource(vmiKind);

  async function podOf(name: string) {
    const vmi = await vmiWhere(cluster.client, name, "a launcher pod", (v) => v.status?.phase !== undefined);
    const pods = await launcherPods(cluster.client, vmi.metadata?.uid ?? "");
    assert.equal(pods.length, 1, "exactly one launcher pod");
    return { vmi, pod: pods[0] as NonNullable<(typeof pods)[number]> };
  }

  test("the launcher pod: labels, owner, one compute container with the VM's resources plus overhead, selectors, grace, restartPolicy", async () => {
    await vmis().create(
      vmiManifest("shaped", {
        ...smallVmiSpec(),
        domain: {
          ...smallVmiSpec().domain,
          cpu: { cores: 2 },
          resources: { requests: { memory: "256Mi", cpu: "500m" }, limits: { memory: "256Mi", cpu: "1" } },
        },
        nodeSelector: { "kubernetes.io/os": "linux" },
        tolerations: [{ key: "dedicated", operator: "Exists", effect: "NoSchedule" }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "Exists" }] },
              ],
            },
          },
        },
        terminationGracePeriodSeconds: 20,
      }),
    );
    const { vmi, pod } = await podOf("shaped");
    assert.equal(pod.metadata?.labels?.["kubevirt.io"], "virt-launcher");
    assert.equal(pod.metadata?.labels?.["kubevirt.io/created-by"], vmi.metadata?.uid);
    assert.equal(pod.metadata?.labels?.["vm.kubevirt.io/name"], "shaped");
    assert.deepEqual(
      pod.metadata?.ownerReferences?.map((o) => [o.kind, o.name, o.controller, o.blockOwnerDeletion]),
      [["VirtualMachineInstance", "shaped", true, true]],
    );
    assert.equal(pod.spec?.containers.length, 1);
    const container = pod.spec?.containers[0];
    assert.equal(container?.name, "compute");
    assert.equal(container?.image, "registry.example/virt-launcher:v1");
    // 256Mi + 8Mi + 2 vCPUs × 2Mi + 256Mi/512 (0.5Mi) = 268.5Mi, rounded up to 269Mi.
    assert.deepEqual(container?.resources?.requests, {
      cpu: "500m",
      memory: "269Mi",
      "devices.kubevirt.io/kvm": "1",
    });
    assert.deepEqual(container?.resources?.limits, {
      cpu: "1",
      memory: "269Mi",
      "devices.kubevirt.io/kvm": "1",
    });
    assert.deepEqual(pod.spec?.nodeSelector, {
      "kubevirt.io/schedulable": "true",
      "kubernetes.io/os": "linux",
      "kubernetes.io/arch": "amd64",
    });
    assert.deepEqual(
      pod.spec?.tolerations?.map((t) => t.key),
      ["dedicated"],
    );
    assert.ok(pod.spec?.affinity?.nodeAffinity);
    assert.equal(pod.spec?.terminationGracePeriodSeconds, 35);
    assert.equal(pod.spec?.restartPolicy, "Never");
  });

  test("useEmulation in the KubeVirt CR decides, for each new launcher pod, whether it asks for /dev/kvm", async () => {
    const kvmOf = async (name: string) => {
      await vmis().create(vmiManifest(name));
      const { pod } = await podOf(name);
      return pod.spec?.containers[0]?.resources?.requests?.["devices.kubevirt.io/kvm"];
    };
    assert.equal(await kvmOf("kvm-default"), "1", "no KubeVirt CR: KubeVirt's default, KVM");
    await cluster.setUseEmulation(true);
    const emulated = await eventually("a pod without /dev/kvm", async () => {
      const name = `emulated-${Date.now()}`;
      return (await kvmOf(name)) === undefined ? name : undefined;
    });
    const { pod } = await podOf(emulated);
    assert.equal(pod.spec?.containers[0]?.resources?.limits?.["devices.kubevirt.io/kvm"], undefined);
    await cluster.setUseEmulation(false);
    await eventually("pods asking for /dev/kvm again", async () =>
      (await kvmOf(`kvm-${Date.now()}`)) === "1" ? true : undefined,
    );
  });

  test("a launcher pod that fails before the VM runs fails the VMI with the reason; the pod is deleted, the finalizer released", async () => {
    cluster.kubelet.behave("doomed", "fail");
    await vmis().create(vmiManifest("doomed"));
    const vmi = await vmiWhere(cluster.client, "doomed", "Failed", (v) => v.status?.phase === "Failed");
    assert.equal(vmi.status?.reason, "PodFailed");
    assert.match(
      vmi.status?.conditions?.find((c) => c.type === "Ready")?.message ?? "",
      /failed: .*the launcher crashed/,
    );
    assert.equal(vmi.status?.nodeName, undefined);
    assert.equal(vmi.metadata?.finalizers, undefined, "never on a node: nothing for virt-handler to release");
    await eventually("the pod deleted", async () =>
      (await launcherPods(cluster.client, vmi.metadata?.uid ?? "")).length === 0 ? true : undefined,
    );
  });

  test("a launcher pod that vanishes while Scheduled fails the VMI; the finalizer stays for virt-handler", async () => {
    await vmis().create(vmiManifest("vanishing"));
    const scheduled = await vmiWhere(
      cluster.client,
      "vanishing",
      "Scheduled",
      (v) => v.status?.phase === "Scheduled",
    );
    const [pod] = await launcherPods(cluster.client, scheduled.metadata?.uid ?? "");
    await cluster.client
      .resource(podKind)
      .delete({ namespace: NAMESPACE, name: pod?.metadata?.name ?? "" }, { gracePeriodSeconds: 0 });
    const failed = await vmiWhere(cluster.client, "vanishing", "Failed", (v) => v.status?.phase === "Failed");
    assert.equal(failed.status?.reason, "PodNotExists");
    assert.deepEqual(failed.metadata?.finalizers, ["kubevirt.io/virtualMachineControllerFinalize"]);
    await handlerReleases(cluster.client, "vanishing");
  });

  test("a VMI deleted before it reached a node is released by the controller (no virt-handler needed)", async () => {
    await vmis().create(vmiManifest("stuck", smallVmiSpec({ nodeSelector: { zone: "nowhere" } })));
    const vmi = await vmiWhere(
      cluster.client,
      "stuck",
      "Unschedulable",
      (v) =>
        v.status?.conditions?.some((c) => c.type === "PodScheduled" && c.reason === "Unschedulable") ?? false,
    );
    assert.equal(vmi.status?.phase, "Scheduling");
    await vmis().delete({ namespace: NAMESPACE, name: "stuck" });
    await vmiGone(cluster.client, "stuck");
    await eventually("its pod deleted", async () =>
      (await launcherPods(cluster.client, vmi.metadata?.uid ?? "")).length === 0 ? true : undefined,
    );
  });

  test("an invalid VMI gets a Failure condition naming the disk, and no pod", async () => {
    const spec = smallVmiSpec();
    spec.domain.devices.disks = [{ name: "nodisk", disk: {} }, ...(spec.domain.devices.disks ?? [])];
    await vmis().create(vmiManifest("invalid", spec));
    const vmi = await vmiWhere(
      cluster.client,
      "invalid",
      "a Failure condition",
      (v) => v.status?.conditions?.some((c) => c.type === "Failure") ?? false,
    );
    assert.equal(vmi.status?.phase, "Pending");
    assert.match(
      vmi.status?.conditions?.find((c) => c.type === "Failure")?.message ?? "",
      /disks\[0\]\.name 'nodisk' not found/,
    );
    assert.equal((await launcherPods(cluster.client, vmi.metadata?.uid ?? "")).length, 0);
    assert.equal((await findVmi(cluster.client, "invalid"))?.metadata?.finalizers, undefined);
  });

  /** A VMI with a hotpluggable claim volume (and disk) beside its containerDisk. */
  function hotplugSpec(volume: string, claimName: string) {
    const spec = smallVmiSpec();
    spec.domain.devices.disks = [
      ...(spec.domain.devices.disks ?? []),
      { name: volume, disk: { bus: "scsi" } },
    ];
    spec.volumes = [
      ...(spec.volumes ?? []),
      { name: volume, persistentVolumeClaim: { claimName, hotpluggable: true } },
    ];
    return spec;
  }

  async function attachmentPodOf(uid: string, volume: string) {
    return eventually(`an attachment pod for ${volume}`, async () =>
      (await attachmentPods(cluster.client, uid)).find(
        (pod) => pod.metadata?.labels?.["kubevirt.io/hotplug-volume"] === volume,
      ),
    );
  }

  const entryOf = (vmi: VirtualMachineInstance | undefined, name: string) =>
    vmi?.status?.volumeStatus?.find((entry) => entry.name === name);

  test("hotplug: the launcher pod lacks the hotpluggable claim; once Running, an attachment pod pinned to the node holds it; AttachedToNode", async () => {
    await boundClaim(cluster.client, "hot-claim");
    await vmis().create(vmiManifest("hotplug", hotplugSpec("hot", "hot-claim")));
    const scheduled = await vmiWhere(
      cluster.client,
      "hotplug",
      "Scheduled",
      (v) => v.status?.phase === "Scheduled",
    );
    const uid = scheduled.metadata?.uid ?? "";
    const [launcher] = await launcherPods(cluster.client, uid);
    assert.equal(
      launcher?.spec?.volumes?.some((volume) => volume.persistentVolumeClaim !== undefined) ?? false,
      false,
      "no claim in the launcher pod",
    );
    assert.deepEqual(await attachmentPods(cluster.client, uid), [], "none before the VM runs");

    await handlerReportsRunning(cluster.client, "hotplug");
    const pod = await attachmentPodOf(uid, "hot");
    assert.match(pod.metadata?.name ?? "", /^hp-volume-[a-z0-9]{5}$/);
    assert.equal(pod.metadata?.labels?.["kubevirt.io"], "hotplug-disk");
    assert.deepEqual(
      pod.metadata?.ownerReferences?.map((o) => [o.kind, o.name, o.uid, o.controller, o.blockOwnerDeletion]),
      [["VirtualMachineInstance", "hotplug", uid, true, true]],
    );
    assert.deepEqual(pod.spec?.volumes?.find((volume) => volume.name === "hot")?.persistentVolumeClaim, {
      claimName: "hot-claim",
    });
    assert.deepEqual(
      pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
      [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [NODE_NAME] }] }],
    );
    assert.equal(pod.spec?.containers[0]?.image, "registry.example/virt-launcher:v1");
    const vmi = await vmiWhere(
      cluster.client,
      "hotplug",
      "the volume AttachedToNode",
      (v) => entryOf(v, "hot")?.phase === "AttachedToNode",
    );
    const entry = entryOf(vmi, "hot");
    assert.equal(entry?.reason, "SuccessfulCreate");
    const running = (await attachmentPodOf(uid, "hot")).spec?.nodeName;
    assert.equal(running, NODE_NAME, "the scheduler bound it to the VMI's node");
    assert.deepEqual(entry?.hotplugVolume, {
      attachPodName: pod.metadata?.name,
      attachPodUID: pod.metadata?.uid,
    });
    assert.equal(entry?.persistentVolumeClaimInfo?.claimName, "hot-claim");
  });

  test("hotplug: a claim that does not exist shows as Pending FailedPvcNotFound and gets no pod", async () => {
    await changeVmi(cluster.client, "hotplug", (vmi) => {
      vmi.spec.domain.devices.disks?.push({ name: "absent", disk: { bus: "scsi" } });
      vmi.spec.volumes?.push({
        name: "absent",
        persistentVolumeClaim: { claimName: "no-such-claim", hotpluggable: true },
      });
    });
    const vmi = await vmiWhere(
      cluster.client,
      "hotplug",
      "an entry for the absent claim",
      (v) => entryOf(v, "absent") !== undefined,
    );
    const entry = entryOf(vmi, "absent");
    assert.equal(entry?.phase, "Pending");
    assert.equal(entry?.reason, "FailedPvcNotFound");
    assert.equal(entry?.message, "PVC no-such-claim not found");
    const pods = await attachmentPods(cluster.client, vmi.metadata?.uid ?? "");
    assert.deepEqual(
      pods.map((pod) => pod.metadata?.labels?.["kubevirt.io/hotplug-volume"]),
      ["hot"],
    );
  });

  test("hotplug: a volume out of the spec keeps its pod while virt-handler reports it, and loses it once the entry is gone", async () => {
    const before = await findVmi(cluster.client, "hotplug");
    const uid = before?.metadata?.uid ?? "";
    const pod = await attachmentPodOf(uid, "hot");
    // virt-handler: the disk is in the domain.
    await changeVmi(cluster.client, "hotplug", (vmi) => {
      const entry = vmi.status?.volumeStatus?.find((e) => e.name === "hot");
      if (entry) Object.assign(entry, { phase: "Ready", reason: "VolumeReady", target: "sda" });
    });
    // virt-controller's VM side: the volume leaves the spec.
    await changeVmi(cluster.client, "hotplug", (vmi) => {
      vmi.spec.domain.devices.disks = vmi.spec.domain.devices.disks?.filter((disk) => disk.name !== "hot");
      vmi.spec.volumes = vmi.spec.volumes?.filter((volume) => volume.name !== "hot");
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const kept = (await attachmentPods(cluster.client, uid)).find(
      (p) => p.metadata?.uid === pod.metadata?.uid,
    );
    assert.ok(kept, "the pod stays while QEMU may still have the disk");
    assert.equal(kept.metadata?.deletionTimestamp, undefined);
    const stillReady = await findVmi(cluster.client, "hotplug");
    assert.equal(entryOf(stillReady, "hot")?.phase, "Ready", "the handler's entry untouched");
    // virt-handler: QEMU let go of the disk.
    await changeVmi(cluster.client, "hotplug", (vmi) => {
      if (vmi.status) vmi.status.volumeStatus = vmi.status.volumeStatus?.filter((e) => e.name !== "hot");
    });
    await eventually("the attachment pod deleted", async () =>
      (await attachmentPods(cluster.client, uid)).some((p) => p.metadata?.uid === pod.metadata?.uid)
        ? undefined
        : true,
    );
  });

  test("hotplug: a VMI that ends takes its attachment pods with it", async () => {
    await boundClaim(cluster.client, "ending-claim");
    await vmis().create(vmiManifest("hotplug-ending", hotplugSpec("data", "ending-claim")));
    const vmi = await vmiWhere(
      cluster.client,
      "hotplug-ending",
      "Scheduled",
      (v) => v.status?.phase === "Scheduled",
    );
    await handlerReportsRunning(cluster.client, "hotplug-ending");
    await attachmentPodOf(vmi.metadata?.uid ?? "", "data");
    await handlerReportsFinished(cluster.client, "hotplug-ending", "Succeeded");
    await eventually("the attachment pod deleted", async () =>
      (await attachmentPods(cluster.client, vmi.metadata?.uid ?? "")).length === 0 ? true : undefined,
    );
  });

  test("metrics: kubevirt_vmi_phase_count by phase and node, kubevirt_vmi_phase_transition_time_from_creation_seconds by phase", async () => {
    const text = await controller.manager.registry.metrics();
    assert.match(text, /kubevirt_vmi_phase_count\{phase="scheduled",node="node-a"\} [1-9]/);
    assert.match(text, /kubevirt_vmi_phase_count\{phase="failed",node=""\} [1-9]/);
    assert.match(
      text,
      /kubevirt_vmi_phase_transition_time_from_creation_seconds_count\{phase="Scheduled"\} [1-9]/,
    );
    assert.match(
      text,
      /kubevirt_vmi_phase_transition_time_from_creation_seconds_bucket\{le="5",phase="Scheduling"\} [1-9]/,
    );
  });
});

describe("a launcher pod the API server refuses", () => {
  let cluster: VirtTestCluster;

  before(async () => {
    cluster = await startVirtTestCluster();
    // A --launcher-image with a trailing space: the API server answers 422, as Kubernetes does.
    await cluster.startController({ launcherImage: "registry.example/virt-launcher:v1 " });
  });
  after(async () => cluster?.close());

  test("shows on the VMI as Synchronized=False with reason FailedCreate and the server's message, and in a FailedCreate Event", async () => {
    await cluster.client.resource(vmiKind).create(vmiManifest("refused"));
    const vmi = await vmiWhere(
      cluster.client,
      "refused",
      "a Synchronized condition",
      (v) => v.status?.conditions?.some((c) => c.type === "Synchronized") ?? false,
    );
    const synchronized = vmi.status?.conditions?.find((c) => c.type === "Synchronized");
    assert.equal(synchronized?.status, "False");
    assert.equal(synchronized?.reason, "FailedCreate");
    assert.match(
      synchronized?.message ?? "",
      /^failed to create virtual machine pod: .*spec\.containers\[0\]\.image.*must not have leading or trailing whitespace/,
    );
    assert.doesNotMatch(synchronized?.message ?? "", /POST /, "the server's message, not our request line");
    assert.equal(vmi.status?.phase, "Pending");
    assert.equal((await launcherPods(cluster.client, vmi.metadata?.uid ?? "")).length, 0);
    const event = await eventually("a FailedCreate event", async () => {
      const events = await cluster.client.resource(eventKind).list({ namespace: NAMESPACE });
      return events.items.find((e) => e.involvedObject.name === "refused" && e.reason === "FailedCreate");
    });
    assert.equal(event.type, "Warning");
    assert.match(event.message, /^Error creating pod: .*must not have leading or trailing whitespace/);
  });
});
