import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { enabledFeatureGates } from "../kubevirt/feature-gates.js";
import { loadTestManifest } from "../testing/testdata.js";
import {
  validateVirtualMachine,
  validateVirtualMachineInstance,
  validateVirtualMachineInstanceReplicaSet,
} from "./object-validation.js";

const HOST_DISK = { name: "host", hostDisk: { path: "/root/secret.img", type: "Disk" } };
const HOST_DISK_DISK = { name: "host", disk: { bus: "virtio" } };

/** The manifest with a hostDisk volume (and its disk) added; and the new volume's index. */
function withHostDisk(manifest: string, specPath: readonly string[]): { object: unknown; position: number } {
  const object = structuredClone(loadTestManifest(manifest)) as Record<string, unknown>;
  let spec = object;
  for (const key of specPath) spec = spec[key] as Record<string, unknown>;
  const volumes = spec.volumes as unknown[];
  volumes.push(HOST_DISK);
  (spec.domain as { devices: { disks: unknown[] } }).devices.disks.push(HOST_DISK_DISK);
  return { object, position: volumes.length - 1 };
}

describe("feature gates", () => {
  test("a gate is on when listed in featureGates and not in disabledFeatureGates", () => {
    assert.deepEqual([...enabledFeatureGates(undefined)], []);
    const enabled = enabledFeatureGates({
      developerConfiguration: { featureGates: ["HostDisk", "Snapshot"], disabledFeatureGates: ["Snapshot"] },
    });
    assert.deepEqual([...enabled], ["HostDisk"]);
  });

  const cases = [
    { kind: "VMI", validate: validateVirtualMachineInstance, manifest: "vmi-emptydisk.yaml", path: ["spec"] },
    {
      kind: "VM",
      validate: validateVirtualMachine,
      manifest: "vm-cirros.yaml",
      path: ["spec", "template", "spec"],
    },
    {
      kind: "VMIRS",
      validate: validateVirtualMachineInstanceReplicaSet,
      manifest: "vmirs-cirros.yaml",
      path: ["spec", "template", "spec"],
    },
  ] as const;
  for (const { kind, validate, manifest, path } of cases) {
    test(`${kind}: hostDisk is refused with KubeVirt's message until HostDisk is enabled`, () => {
      const { object, position } = withHostDisk(manifest, path);
      assert.deepEqual(validate(object), [
        {
          reason: "FieldValueInvalid",
          message: "HostDisk feature gate is not enabled",
          field: `${path.join(".")}.volumes[${position}]`,
        },
      ]);
      assert.deepEqual(validate(object, { featureGates: ["HostDisk"] }), []);
      assert.equal(validate(object, { featureGates: ["Snapshot"] }).length, 1, "another gate does not help");
    });
  }

  test("a VMI without hostDisk needs no gate", () => {
    assert.deepEqual(validateVirtualMachineInstance(loadTestManifest("vmi-emptydisk.yaml")), []);
  });
});
