// The hotplugged volumes' share of a running VMI's status: Ready once the live domain has the disk,
// Detaching while a dropped one is still there, gone once the guest let it go.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DomainState } from "../../libvirt/index.js";
import type { Vmi } from "../kinds.js";
import { runningStatus } from "./vmi-status.js";

type VolumeStatus = NonNullable<NonNullable<Vmi["status"]>["volumeStatus"]>[number];

function vmiWith(hotplugged: readonly string[], volumeStatus?: VolumeStatus[]): Vmi {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstance",
    metadata: { name: "vm", namespace: "default", uid: "11111111-2222-3333-4444-555555555555" },
    spec: {
      domain: { devices: { disks: [{ name: "root" }, ...hotplugged.map((name) => ({ name }))] } },
      volumes: [
        { name: "root", containerDisk: { image: "localhost/guest" } },
        ...hotplugged.map((name) => ({
          name,
          persistentVolumeClaim: { claimName: name, hotpluggable: true },
        })),
      ],
    },
    status: { phase: "Running", ...(volumeStatus ? { volumeStatus } : {}) },
  };
}

function statusOf(vmi: Vmi, live: Record<string, string>): VolumeStatus[] | undefined {
  const facts = {
    state: DomainState.Running,
    reason: 1,
    interfaces: [],
    disks: new Map(Object.entries(live)),
  };
  return runningStatus(vmi, facts, Date.parse("2026-12-03T12:00:00Z")).volumeStatus;
}

describe("hotplugged volumes in a running VMI's status", () => {
  test("a volume the domain has is Ready at its target; what virt-controller recorded stays", () => {
    const recorded: VolumeStatus = {
      name: "data",
      target: "",
      phase: "AttachedToNode",
      hotplugVolume: { attachPodName: "hp-volume-abcde", attachPodUID: "u" },
    };
    const vmi = vmiWith(["data", "more"], [recorded]);
    assert.deepEqual(statusOf(vmi, { root: "vda", data: "sda" }), [
      {
        name: "data",
        phase: "Ready",
        target: "sda",
        reason: "VolumeReady",
        message: "Successfully attach hotplugged volume data to VM",
        hotplugVolume: { attachPodName: "hp-volume-abcde", attachPodUID: "u" },
      },
    ]);
  });

  test("a volume the spec dropped is Detaching while the domain has it, and its entry goes after", () => {
    const ready: VolumeStatus = { name: "data", phase: "Ready", target: "sda" };
    const vmi = vmiWith([], [ready]);
    assert.deepEqual(
      statusOf(vmi, { root: "vda", data: "sda" })?.map((entry) => [entry.name, entry.phase]),
      [["data", "Detaching"]],
    );
    assert.equal(statusOf(vmi, { root: "vda" }), undefined);
  });
});
