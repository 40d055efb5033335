// The VM controller and instancetypes against the dev API server: the revision is stored once and
// owned by the VM, the VMI is expanded from it, an edit of the instancetype reaches the VM only
// after its revision reference is cleared, and a missing instancetype holds the VM back.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  clusterInstancetypeKind,
  clusterPreferenceKind,
  controllerRevisionKind,
  REVISION_LABELS,
} from "../../api/index.js";
import { vmKind } from "../kinds.js";
import {
  findVmi,
  getVm,
  handlerReleases,
  NAMESPACE,
  vmiGone,
  vmiWhere,
  vmManifest,
  vmWhere,
} from "../testing/fixtures.js";
import { startVirtTestCluster, type VirtTestCluster } from "../testing/test-cluster.js";

/** A template that leaves CPU and memory to the instancetype. */
function sizelessSpec() {
  return {
    domain: { devices: { disks: [{ name: "containerdisk", disk: {} }] } },
    terminationGracePeriodSeconds: 0,
    volumes: [{ name: "containerdisk", containerDisk: { image: "localhost/test-guest:latest" } }],
  };
}

function instancetype(name: string, guest: number, memory: string) {
  return {
    apiVersion: "instancetype.kubevirt.io/v1beta1",
    kind: "VirtualMachineClusterInstancetype",
    metadata: { name },
    spec: { cpu: { guest }, memory: { guest: memory } },
  };
}

describe("the VM controller with instancetypes and preferences", () => {
  let cluster: VirtTestCluster;

  before(async () => {
    cluster = await startVirtTestCluster();
    await cluster.startController({});
  });
  after(async () => {
    await cluster?.close();
  });

  const vms = () => cluster.client.resource(vmKind);

  async function restart(name: string): Promise<void> {
    const old = await findVmi(cluster.client, name);
    await vms().mergePatch({ namespace: NAMESPACE, name }, { spec: { runStrategy: "Halted" } });
    await vmiWhere(cluster.client, name, "being deleted", (v) => v.metadata?.deletionTimestamp !== undefined);
    await handlerReleases(cluster.client, name);
    await vmiGone(cluster.client, name, old?.metadata?.uid);
    await vms().mergePatch({ namespace: NAMESPACE, name }, { spec: { runStrategy: "Always" } });
  }

  test("a VM gets its instancetype's CPUs (as the preference's cores) and memory from a revision it owns; an edit reaches it only once the revision ref is cleared", async () => {
    await cluster.client.resource(clusterInstancetypeKind).create(instancetype("it-small", 2, "256Mi"));
    await cluster.client.resource(clusterPreferenceKind).create({
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterPreference",
      metadata: { name: "pref-cores" },
      spec: { cpu: { preferredCPUTopology: "cores" }, devices: { preferredDiskBus: "sata" } },
    });
    const manifest = vmManifest("sized", { runStrategy: "Always" }, sizelessSpec());
    manifest.spec.instancetype = { name: "it-small" };
    manifest.spec.preference = { name: "pref-cores" };
    await vms().create(manifest);

    const vmi = await vmiWhere(cluster.client, "sized", "created", () => true);
    assert.deepEqual(
      [vmi.spec.domain.cpu?.sockets, vmi.spec.domain.cpu?.cores, vmi.spec.domain.cpu?.threads],
      [1, 2, 1],
      "2 vCPUs as cores",
    );
    assert.equal(vmi.spec.domain.memory?.guest, "256Mi");
    assert.equal(vmi.spec.domain.devices.disks?.[0]?.disk?.bus, "sata", "the preference's disk bus");
    assert.equal(vmi.metadata?.annotations?.["kubevirt.io/cluster-instancetype-name"], "it-small");
    assert.equal(vmi.metadata?.annotations?.["kubevirt.io/cluster-preference-name"], "pref-cores");

    const vm = await vmWhere(cluster.client, "sized", "revision refs", (v) =>
      Boolean(
        v.status?.instancetypeRef?.controllerRevisionRef?.name &&
          v.status.preferenceRef?.controllerRevisionRef?.name,
      ),
    );
    const ref = vm.status?.instancetypeRef;
    assert.equal(ref?.name, "it-small");
    assert.equal(
      ref?.kind,
      "virtualmachineclusterinstancetype",
      "the matcher names no kind (no webhook here)",
    );
    const live = await cluster.client.resource(clusterInstancetypeKind).get({ name: "it-small" });
    const revisionName = ref?.controllerRevisionRef?.name ?? "";
    assert.equal(revisionName, `sized-it-small-v1beta1-${live.metadata?.uid}-1`, "KubeVirt's revision name");
    const revision = await cluster.client
      .resource(controllerRevisionKind)
      .get({ namespace: NAMESPACE, name: revisionName });
    assert.equal(revision.metadata?.ownerReferences?.[0]?.uid, vm.metadata?.uid, "owned by the VM");
    assert.equal(revision.metadata?.labels?.[REVISION_LABELS.name], "it-small");
    assert.equal(revision.metadata?.labels?.[REVISION_LABELS.kind], "VirtualMachineClusterInstancetype");

    // The instancetype changes: the running VM and its next VMI keep the revision.
    await cluster.client
      .resource(clusterInstancetypeKind)
      .mergePatch({ name: "it-small" }, { spec: { cpu: { guest: 4 }, memory: { guest: "512Mi" } } });
    await restart("sized");
    const kept = await vmiWhere(
      cluster.client,
      "sized",
      "recreated",
      (v) => v.metadata?.uid !== vmi.metadata?.uid,
    );
    assert.equal(kept.spec.domain.cpu?.cores, 2, "still the stored revision");
    assert.equal(kept.spec.domain.memory?.guest, "256Mi");
    assert.equal(
      (await getVm(cluster.client, "sized")).status?.instancetypeRef?.controllerRevisionRef?.name,
      revisionName,
    );

    // Clearing the ref stores the instancetype as it is now; the next start takes it.
    await vms().jsonPatch(
      { namespace: NAMESPACE, name: "sized" },
      [{ op: "remove", path: "/status/instancetypeRef/controllerRevisionRef" }],
      { subresource: "status" },
    );
    await vmWhere(
      cluster.client,
      "sized",
      "a new revision",
      (v) => (v.status?.instancetypeRef?.controllerRevisionRef?.name ?? revisionName) !== revisionName,
    );
    await restart("sized");
    const resized = await vmiWhere(
      cluster.client,
      "sized",
      "recreated again",
      (v) => v.metadata?.uid !== kept.metadata?.uid,
    );
    assert.equal(resized.spec.domain.cpu?.cores, 4);
    assert.equal(resized.spec.domain.memory?.guest, "512Mi");
  });

  test("a VM whose instancetype does not exist says so and starts once it does", async () => {
    const manifest = vmManifest("waiting", { runStrategy: "Always" }, sizelessSpec());
    manifest.spec.instancetype = { name: "it-later", kind: "virtualmachineclusterinstancetypes" };
    await vms().create(manifest);
    const vm = await vmWhere(cluster.client, "waiting", "Failure", (v) =>
      Boolean(v.status?.conditions?.some((c) => c.type === "Failure")),
    );
    const failure = vm.status?.conditions?.find((c) => c.type === "Failure");
    assert.equal(failure?.reason, "FailedFindInstancetype");
    assert.match(
      failure?.message ?? "",
      /virtualmachineclusterinstancetypes.instancetype.kubevirt.io "it-later" not found/,
    );
    await sleep(300);
    assert.equal(await findVmi(cluster.client, "waiting"), undefined, "no VMI without its instancetype");

    await cluster.client.resource(clusterInstancetypeKind).create(instancetype("it-later", 1, "128Mi"));
    const vmi = await vmiWhere(cluster.client, "waiting", "created", () => true);
    assert.equal(vmi.spec.domain.memory?.guest, "128Mi");
    assert.equal(vmi.spec.domain.cpu?.sockets, 1);
  });

  test("a template that sets what the instancetype sets is refused with KubeVirt's message and paths", async () => {
    await cluster.client.resource(clusterInstancetypeKind).create(instancetype("it-conflict", 1, "128Mi"));
    const spec = sizelessSpec();
    const manifest = vmManifest(
      "conflicting",
      { runStrategy: "Always" },
      {
        ...spec,
        domain: { ...spec.domain, cpu: { sockets: 2 }, memory: { guest: "1Gi" } },
      },
    );
    manifest.spec.instancetype = { name: "it-conflict" };
    await vms().create(manifest);
    const vm = await vmWhere(cluster.client, "conflicting", "Failure", (v) =>
      Boolean(v.status?.conditions?.some((c) => c.type === "Failure")),
    );
    const message = vm.status?.conditions?.find((c) => c.type === "Failure")?.message ?? "";
    assert.match(
      message,
      /VM field\(s\) spec\.template\.spec\.domain\.cpu\.sockets, spec\.template\.spec\.domain\.memory\.guest conflicts with selected instance type/,
    );
    assert.equal(await findVmi(cluster.client, "conflicting"), undefined);
  });
});
