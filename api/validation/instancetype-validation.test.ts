// Instancetypes and preferences at admission: KubeVirt's rules, and what kubevirt-ts cannot give a VM
// refused with "not supported yet" and the field; a VM against what it references.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { VirtualMachineSpec } from "../vm/vm-spec.js";
import { validateInstancetype, validatePreference } from "./instancetype-object-validation.js";
import {
  inferenceMatcherCauses,
  validateAgainstReferences,
  validateReferenceMatchers,
} from "./vm-references-validation.js";

function instancetype(spec: Record<string, unknown>) {
  return {
    apiVersion: "instancetype.kubevirt.io/v1beta1",
    kind: "VirtualMachineClusterInstancetype",
    metadata: { name: "it" },
    spec,
  };
}

function vmSpec(domain: Record<string, unknown> = {}): VirtualMachineSpec {
  return {
    runStrategy: "Always",
    instancetype: { name: "it" },
    template: { spec: { domain: { devices: {}, ...domain } } },
  } as VirtualMachineSpec;
}

describe("instancetype and preference admission", () => {
  test("a plain instancetype is valid; its shape is required", () => {
    assert.deepEqual(
      validateInstancetype(instancetype({ cpu: { guest: 1 }, memory: { guest: "2Gi" } }), true),
      [],
    );
    const causes = validateInstancetype(instancetype({ cpu: { guest: 1 } }), true);
    assert.ok(
      causes.some((cause) => cause.field.startsWith("spec.memory")),
      JSON.stringify(causes),
    );
  });

  test("what kubevirt-ts does not honour is refused with the field", () => {
    const causes = validateInstancetype(
      instancetype({
        cpu: { guest: 2, dedicatedCPUPlacement: true, isolateEmulatorThread: false },
        memory: { guest: "2Gi", hugepages: { pageSize: "2Mi" } },
        gpus: [{ name: "gpu1", deviceName: "nvidia.com/GP102" }],
      }),
      true,
    );
    assert.deepEqual(
      causes.map((cause) => cause.field),
      ["spec.cpu.dedicatedCPUPlacement", "spec.memory.hugepages", "spec.gpus"],
    );
    assert.match(causes[0]?.message ?? "", /dedicated CPU placement is not supported yet/);
    assert.equal(causes[0]?.reason, "FieldValueForbidden");
  });

  test("a preference with honoured fields is valid; the others are refused", () => {
    const preference = (spec: Record<string, unknown>) => ({
      kind: "VirtualMachinePreference",
      metadata: { name: "p" },
      spec,
    });
    assert.deepEqual(
      validatePreference(
        preference({
          cpu: { preferredCPUTopology: "spread" },
          devices: { preferredDiskBus: "virtio", preferredRng: {} },
        }),
      ),
      [],
    );
    const causes = validatePreference(
      preference({
        devices: { preferredTPM: {}, preferredBlockMultiQueue: false },
        features: { preferredHyperv: { relaxed: {} } },
      }),
    );
    assert.deepEqual(
      causes.map((cause) => cause.field),
      ["spec.devices.preferredTPM", "spec.features.preferredHyperv"],
    );
  });
});

describe("a VM's references", () => {
  test("an unknown kind is refused without a lookup; inferFromVolume is virt-api's mutator's to resolve", () => {
    const spec = vmSpec();
    spec.instancetype = { name: "it", kind: "Flavor" };
    spec.preference = { inferFromVolume: "root" };
    const causes = validateReferenceMatchers("spec", spec);
    assert.deepEqual(
      causes.map((cause) => cause.field),
      ["spec.instancetype.kind"],
    );
    assert.equal(causes[0]?.message, "got unexpected kind in InstancetypeMatcher: Flavor");
  });

  test("a matcher to infer that also gives a name or kind: KubeVirt's causes", () => {
    const spec = vmSpec();
    spec.instancetype = { inferFromVolume: "root", name: "u1.small" };
    spec.preference = { inferFromVolume: "root", kind: "VirtualMachinePreference" };
    assert.deepEqual(inferenceMatcherCauses("spec", spec), [
      {
        reason: "FieldValueNotSupported",
        message: "Name already set, should be cleared before setting inferFromVolume",
        field: "spec.instancetype.name",
      },
      {
        reason: "FieldValueNotSupported",
        message: "Kind already set, should be cleared before setting inferFromVolume",
        field: "spec.preference.kind",
      },
    ]);
    spec.instancetype = { inferFromVolume: "root" };
    spec.preference = { name: "fedora", kind: "VirtualMachinePreference" };
    assert.deepEqual(inferenceMatcherCauses("spec", spec), []);
  });

  test("a conflict with the instancetype: one cause per field, KubeVirt's message", () => {
    const causes = validateAgainstReferences("spec", vmSpec({ memory: { guest: "1Gi" } }), {
      instancetype: { name: "it", scope: "cluster", spec: { cpu: { guest: 1 }, memory: { guest: "2Gi" } } },
    });
    assert.deepEqual(causes, [
      {
        reason: "FieldValueInvalid",
        field: "spec.template.spec.domain.memory.guest",
        message: "VM field(s) spec.template.spec.domain.memory.guest conflicts with selected instance type",
      },
    ]);
  });

  test("a preference's requirements against the instancetype", () => {
    const causes = validateAgainstReferences("spec", vmSpec(), {
      instancetype: { name: "it", scope: "cluster", spec: { cpu: { guest: 1 }, memory: { guest: "1Gi" } } },
      preference: {
        name: "p",
        scope: "cluster",
        spec: { requirements: { cpu: { guest: 2 }, memory: { guest: "2Gi" } } },
      },
    });
    assert.deepEqual(
      causes.map((cause) => cause.message),
      [
        "failure checking preference requirements: insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU",
        "failure checking preference requirements: insufficient Memory resources of 1Gi provided by instance type, preference requires 2Gi",
      ],
    );
  });
});
