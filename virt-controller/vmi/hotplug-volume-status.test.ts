import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import { deepFreeze, type Frozen } from "../../runtime/index.js";
import type { Pod, VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { hotplugVolumeStatus, type VolumeStatus } from "./hotplug-volume-status.js";

function runningVmi(volumeStatus?: VolumeStatus[]): Frozen<VirtualMachineInstance> {
  const spec = smallVmiSpec();
  spec.volumes = [
    ...(spec.volumes ?? []),
    { name: "hot", persistentVolumeClaim: { claimName: "hot-claim", hotpluggable: true } },
    { name: "cold", persistentVolumeClaim: { claimName: "cold-claim" } },
  ];
  return deepFreeze<VirtualMachineInstance>({
    metadata: { name: "vm", namespace: "ns", uid: "vmi-uid" },
    spec,
    status: { phase: "Running", nodeName: "node-a", ...(volumeStatus ? { volumeStatus } : {}) },
  });
}

function claim(phase: "Pending" | "Bound" | "Lost"): Frozen<IPersistentVolumeClaim> {
  return deepFreeze<IPersistentVolumeClaim>({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "hot-claim", namespace: "ns" },
    spec: {
      accessModes: ["ReadWriteOnce"],
      volumeMode: "Filesystem",
      resources: { requests: { storage: "1Gi" } },
    },
    status: { phase, ...(phase === "Bound" ? { capacity: { storage: "1Gi" } } : {}) },
  });
}

function pod(phase: "Pending" | "Running"): Frozen<Pod> {
  return deepFreeze<Pod>({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "hp-volume-abcde", namespace: "ns", uid: "pod-uid" },
    spec: { containers: [{ name: "hotplug-disk", image: "virt-launcher" }] },
    status: { phase },
  });
}

function statusOf(
  vmi: Frozen<VirtualMachineInstance>,
  state: { claim?: Frozen<IPersistentVolumeClaim>; pod?: Frozen<Pod> },
): VolumeStatus[] | undefined {
  return hotplugVolumeStatus({
    vmi,
    podFor: new Map(state.pod ? [["hot", state.pod]] : []),
    claim: (name) => (name === "hot-claim" ? state.claim : undefined),
    blocked: new Map(),
  });
}

describe("hotplugged volumes' status (virt-controller's share)", () => {
  test("no claim: Pending, FailedPvcNotFound; only hotpluggable volumes get an entry", () => {
    assert.deepEqual(statusOf(runningVmi(), {}), [
      {
        name: "hot",
        target: "",
        phase: "Pending",
        reason: "FailedPvcNotFound",
        message: "PVC hot-claim not found",
        hotplugVolume: {},
      },
    ]);
  });

  test("a claim not bound yet, its pod not running: Pending, PVCNotReady, the pod's name but not its uid", () => {
    const [entry] = statusOf(runningVmi(), { claim: claim("Pending"), pod: pod("Pending") }) ?? [];
    assert.equal(entry?.phase, "Pending");
    assert.equal(entry?.reason, "PVCNotReady");
    assert.equal(entry?.message, "PVC is in phase ClaimPending");
    assert.deepEqual(entry?.hotplugVolume, { attachPodName: "hp-volume-abcde" });
    assert.deepEqual(entry?.persistentVolumeClaimInfo, {
      claimName: "hot-claim",
      accessModes: ["ReadWriteOnce"],
      volumeMode: "Filesystem",
      requests: { storage: "1Gi" },
    });
  });

  test("a bound claim: Bound; its pod running: AttachedToNode with the pod's name and uid", () => {
    const [bound] = statusOf(runningVmi(), { claim: claim("Bound") }) ?? [];
    assert.equal(bound?.phase, "Bound");
    assert.equal(bound?.message, "PVC is in phase Bound");
    const [attached] = statusOf(runningVmi(), { claim: claim("Bound"), pod: pod("Running") }) ?? [];
    assert.equal(attached?.phase, "AttachedToNode");
    assert.equal(attached?.reason, "SuccessfulCreate");
    assert.equal(attached?.message, "Created hotplug attachment pod hp-volume-abcde, for volume hot");
    assert.deepEqual(attached?.hotplugVolume, { attachPodName: "hp-volume-abcde", attachPodUID: "pod-uid" });
    assert.deepEqual(attached?.persistentVolumeClaimInfo?.capacity, { storage: "1Gi" });
  });

  test("virt-handler's Ready entry is left as it is; so is the entry of a volume no longer in the spec", () => {
    const ready: VolumeStatus = {
      name: "hot",
      target: "sda",
      phase: "Ready",
      reason: "VolumeReady",
      message: "Successfully attach hotplugged volume hot to VM",
      hotplugVolume: { attachPodName: "hp-volume-abcde", attachPodUID: "pod-uid" },
    };
    const gone: VolumeStatus = { name: "unplugged", target: "sdb", phase: "Ready" };
    assert.deepEqual(statusOf(runningVmi([ready, gone]), { claim: claim("Bound"), pod: pod("Running") }), [
      ready,
      gone,
    ]);
  });

  test("an entry the controller wrote moves on, in place, keeping virt-handler's target", () => {
    const earlier: VolumeStatus = { name: "hot", target: "", phase: "Pending", reason: "FailedPvcNotFound" };
    const other: VolumeStatus = { name: "zzz", target: "vdb" };
    const entries = statusOf(runningVmi([earlier, other]), { claim: claim("Bound"), pod: pod("Running") });
    assert.deepEqual(
      entries?.map((entry) => [entry.name, entry.phase]),
      [
        ["hot", "AttachedToNode"],
        ["zzz", undefined],
      ],
    );
  });
});
