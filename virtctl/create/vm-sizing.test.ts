// `virtctl create vm` with instancetypes, preferences and inference: KubeVirt's semantics and messages.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildVmManifest, CREATE_VM_DEFAULTS, type CreateVmFlags } from "./vm-manifest.js";

const flags = (overrides: Partial<CreateVmFlags> = {}): CreateVmFlags => ({
  ...CREATE_VM_DEFAULTS,
  volumeContainerdisk: [],
  ...overrides,
});
const given = (...names: string[]) => new Set(names);
const build = (overrides: Partial<CreateVmFlags>) => buildVmManifest(flags(overrides), () => "vm-abcde");

describe("create vm: --instancetype and --preference", () => {
  test("a cluster instancetype by name (the kind left to the server's default), no memory of its own", () => {
    const vm = build({
      instancetype: "u1.medium",
      preference: "fedora",
      given: given("instancetype", "preference"),
    });
    assert.deepEqual(vm.spec.instancetype, { name: "u1.medium" });
    assert.deepEqual(vm.spec.preference, { name: "fedora" });
    assert.equal(vm.spec.template.spec?.domain.memory, undefined);
  });

  test("a namespaced kind before the slash, in any case", () => {
    const vm = build({
      instancetype: "VirtualMachineInstancetype/my-it",
      preference: "virtualmachinepreference/my-pref",
      given: given("instancetype", "preference"),
    });
    assert.deepEqual(vm.spec.instancetype, { name: "my-it", kind: "virtualmachineinstancetype" });
    assert.deepEqual(vm.spec.preference, { name: "my-pref", kind: "virtualmachinepreference" });
    assert.equal(vm.spec.template.spec?.domain.memory?.guest, undefined);
  });

  test("a preference alone keeps the default memory", () => {
    const vm = build({ preference: "cirros", given: given("preference") });
    assert.equal(vm.spec.template.spec?.domain.memory?.guest, "512Mi");
    assert.equal(vm.spec.instancetype, undefined);
  });

  test("bad names and kinds, and flags that exclude each other, are refused as KubeVirt refuses them", () => {
    const refused = (overrides: Partial<CreateVmFlags>, message: string) =>
      assert.throws(() => build(overrides), { message });
    refused(
      { instancetype: "u1.small", memory: "1Gi", given: given("instancetype", "memory") },
      "if any flags in the group [memory instancetype infer-instancetype infer-instancetype-from] are set none of the others can be; [instancetype memory] were all set",
    );
    refused(
      { preference: "fedora", inferPreference: true, given: given("preference", "infer-preference") },
      "if any flags in the group [preference infer-preference infer-preference-from] are set none of the others can be; [infer-preference preference] were all set",
    );
    refused(
      { instancetype: "pods/x", given: given("instancetype") },
      'failed to parse "--instancetype" flag: invalid instancetype kind "pods", supported values are: virtualmachineinstancetype, virtualmachineclusterinstancetype',
    );
    refused(
      { preference: "virtualmachineinstancetype/x", given: given("preference") },
      'failed to parse "--preference" flag: invalid preference kind "virtualmachineinstancetype", supported values are: virtualmachinepreference, virtualmachineclusterpreference',
    );
    refused(
      { instancetype: "virtualmachineinstancetype/", given: given("instancetype") },
      'failed to parse "--instancetype" flag: name cannot be empty',
    );
    refused(
      { instancetype: "a/b/c", given: given("instancetype") },
      'failed to parse "--instancetype" flag: invalid count 2 of slashes in prefix/name',
    );
  });
});

describe("create vm: inference from a volume", () => {
  test("implicit: from a PVC boot volume, failures ignored by the server, the default memory kept", () => {
    const vm = build({ volumePvc: ["src:fedora-root"] });
    assert.deepEqual(vm.spec.template.spec?.volumes, [
      { name: "fedora-root", persistentVolumeClaim: { claimName: "fedora-root" } },
    ]);
    const matcher = { inferFromVolume: "fedora-root", inferFromVolumeFailurePolicy: "Ignore" };
    assert.deepEqual(vm.spec.instancetype, matcher);
    assert.deepEqual(vm.spec.preference, matcher);
    assert.equal(vm.spec.template.spec?.domain.memory?.guest, "512Mi");
  });

  test("implicit inference is skipped without a volume that can carry it, with --memory, or =false", () => {
    assert.equal(build({ volumeContainerdisk: ["src:img"] }).spec.instancetype, undefined);
    const withMemory = build({ volumePvc: ["src:root"], memory: "1Gi", given: given("memory") });
    assert.equal(withMemory.spec.instancetype, undefined);
    assert.deepEqual(withMemory.spec.preference, {
      inferFromVolume: "root",
      inferFromVolumeFailurePolicy: "Ignore",
    });
    const off = build({ volumePvc: ["src:root"], inferInstancetype: "false", inferPreference: "false" });
    assert.equal(off.spec.instancetype, undefined);
    assert.equal(off.spec.preference, undefined);
  });

  test("explicit: the volume of the lowest boot order, or the one named; the instancetype gives the memory", () => {
    const booted = build({
      volumeContainerdisk: ["src:tools"],
      volumePvc: ["src:data", "src:root,bootorder:1"],
      inferInstancetype: true,
      given: given("infer-instancetype"),
    });
    assert.deepEqual(booted.spec.instancetype, { inferFromVolume: "root" });
    assert.equal(booted.spec.template.spec?.domain.memory, undefined);
    const named = build({
      volumePvc: ["src:root", "src:other"],
      inferInstancetypeFrom: "other",
      inferPreference: "other",
      given: given("infer-instancetype-from", "infer-preference"),
    });
    assert.deepEqual(named.spec.instancetype, { inferFromVolume: "other" });
    assert.deepEqual(named.spec.preference, { inferFromVolume: "other" });
  });

  test("explicit inference that cannot work is refused", () => {
    const refused = (overrides: Partial<CreateVmFlags>, message: string) =>
      assert.throws(() => build(overrides), { message });
    refused(
      { inferInstancetype: true, given: given("infer-instancetype") },
      "at least one volume is needed to infer an instance type or preference",
    );
    refused(
      {
        volumeContainerdisk: ["src:img,name:root"],
        inferPreferenceFrom: "root",
        given: given("infer-preference-from"),
      },
      "inference of instancetype or preference works only with datasources, datavolumes or pvcs",
    );
    refused(
      { volumePvc: ["src:root"], inferInstancetypeFrom: "nope", given: given("infer-instancetype-from") },
      'there is no volume with name "nope"',
    );
    refused(
      { volumePvc: ["src:ns/root"] },
      'failed to parse "--volume-pvc" flag: not allowed to specify namespace of pvc "root"',
    );
  });
});
