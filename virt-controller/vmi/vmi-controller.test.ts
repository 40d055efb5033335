import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventKind } from "../../runtime/index.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { podKind, vmiKind } from "../kinds.js";
import {
  findVmi,
  handlerReleases,
  launcherPods,
  NAMESPACE,
  smallVmiSpec,
  vmiGone,
  vmiManifest,
  vmiWhere,
} from "../testing/fixtures.js";
import {
  type InProcessController,
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
