// Instancetypes and preferences at admission: the objects by KubeVirt's rules; a VM against what it
// references, refused with "not supported yet" and the field for what kubevirt-ts cannot give it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { VirtualMachineInstancetypeSpec } from "../instancetype/instancetype-spec.js";
import type { VirtualMachinePreferenceSpec } from "../instancetype/preference-spec.js";
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

  test("an instancetype asking for what kubevirt-ts does not honour is admitted; a VM using it is refused with the field", () => {
    const spec = {
      cpu: { guest: 2, dedicatedCPUPlacement: true, isolateEmulatorThread: false },
      memory: { guest: "2Gi", hugepages: { pageSize: "2Mi" } },
      gpus: [{ name: "gpu1", deviceName: "nvidia.com/GP102" }],
    };
    assert.deepEqual(validateInstancetype(instancetype(spec), true), []);
    const causes = validateAgainstReferences("spec", vmSpec(), {
      instancetype: { name: "it", scope: "cluster", spec: spec as VirtualMachineInstancetypeSpec },
    });
    assert.deepEqual(
      causes.map((cause) => cause.message),
      [
        "it: spec.cpu.dedicatedCPUPlacement: dedicated CPU placement is not supported yet",
        "it: spec.memory.hugepages: hugepages is not supported yet",
        "it: spec.gpus: GPUs is not supported yet",
      ],
    );
    assert.ok(
      causes.every((cause) => cause.field === "spec.instancetype" && cause.reason === "FieldValueForbidden"),
    );
  });

  test("a preference is admitted by KubeVirt's rules; a VM gets refused the hints kubevirt-ts cannot give", () => {
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
    const windowsLike = {
      devices: { preferredTPM: {}, preferredBlockMultiQueue: false },
      features: { preferredHyperv: { relaxed: {} }, preferredAcpi: {} },
    };
    assert.deepEqual(validatePreference(preference(windowsLike)), []);
    const spec = vmSpec({ memory: { guest: "1Gi" } });
    delete spec.instancetype;
    spec.preference = { name: "p" };
    const causes = validateAgainstReferences("spec", spec, {
      preference: { name: "p", scope: "namespaced", spec: windowsLike as VirtualMachinePreferenceSpec },
    });
    assert.deepEqual(
      causes.map((cause) => cause.message),
      [
        "p: spec.devices.preferredTPM: a TPM is not supported yet",
        "p: spec.features.preferredHyperv: Hyper-V enlightenments is not supported yet",
      ],
      "ACPI, which every VM has, is no reason",
    );
  });
});

describe("a VM's references", () => {
  test("the template as the preference fills it is validated as a VMI's spec, as KubeVirt's VM admitter does", () => {
    const spec = {
      preference: { name: "p" },
      template: {
        spec: {
          domain: {
            devices: { interfaces: [{ name: "default", masquerade: {} }] },
            memory: { guest: "1Gi" },
          },
          networks: [{ name: "default", pod: {} }],
        },
      },
    } as VirtualMachineSpec;
    const causes = validateAgainstReferences("spec", spec, {
      preference: { name: "p", scope: "namespaced", spec: { devices: { preferredInterfaceModel: "bogus" } } },
    });
    assert.deepEqual(
      causes.map((cause) => cause.field),
      ["spec.template.spec.domain.devices.interfaces[0].model"],
    );
    assert.match(causes[0]?.message ?? "", /uses model bogus that is not supported/);
  });

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
