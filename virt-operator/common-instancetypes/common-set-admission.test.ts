// What the operator installs is what the cluster admits: every instancetype and preference passes
// virt-api's rules, a VM of each usable preference (on u1.large, which meets every preference's
// requirements) expands into a VMI that admission accepts, and a VM of one that is not usable yet
// is refused with the reasons the set gives.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  defaultVirtualMachineInstance,
  expandSpec,
  type ResolvedReferences,
  type VirtualMachineInstance,
  type VirtualMachineSpec,
  validateAgainstReferences,
  validateInstancetypeSpec,
  validatePreferenceSpec,
  validateVirtualMachineInstance,
} from "../../api/index.js";
import { commonSet } from "./common-set.js";

const set = commonSet();
const large = set.instancetypes.find((instancetype) => instancetype.name === "u1.large");

describe("the installed common set against admission", () => {
  test("every installed instancetype and preference is admitted", () => {
    for (const { name, spec } of set.instancetypes)
      assert.deepEqual(validateInstancetypeSpec("spec", spec), [], name);
    for (const { name, spec } of set.preferences)
      assert.deepEqual(validatePreferenceSpec("spec", spec), [], name);
  });

  test("a VM of each preference on u1.large expands into a VMI admission accepts", () => {
    assert.ok(large);
    const notUsable = new Set(set.preferencesNotUsableYet.map((preference) => preference.name));
    for (const preference of set.preferences.filter((candidate) => !notUsable.has(candidate.name))) {
      const expansion = expandSpec({
        base: "spec.template.spec",
        instancetype: { name: large.name, scope: "cluster", spec: large.spec },
        preference: { name: preference.name, scope: "cluster", spec: preference.spec },
        spec: { domain: { devices: {} } },
        annotations: {},
      });
      assert.deepEqual(expansion.conflicts, [], preference.name);
      assert.ok("spec" in expansion);
      const vmi: VirtualMachineInstance = defaultVirtualMachineInstance({
        apiVersion: "kubevirt.io/v1",
        kind: "VirtualMachineInstance",
        metadata: { name: "probe", namespace: "default" },
        spec: expansion.spec,
      } as VirtualMachineInstance);
      assert.deepEqual(
        validateVirtualMachineInstance(vmi).map((cause) => cause.message),
        [],
        `preference ${preference.name}`,
      );
    }
  });

  test("a VM of an instancetype or preference not usable yet is refused, saying why", () => {
    const vm = (instancetype: string, preference?: string): VirtualMachineSpec => ({
      instancetype: { kind: "VirtualMachineClusterInstancetype", name: instancetype },
      ...(preference === undefined
        ? {}
        : { preference: { kind: "VirtualMachineClusterPreference", name: preference } }),
      template: { spec: { domain: { devices: {} } } },
    });
    const resolve = (instancetype: string, preference?: string): ResolvedReferences => {
      const sized = set.instancetypes.find((candidate) => candidate.name === instancetype);
      const preferred = set.preferences.find((candidate) => candidate.name === preference);
      assert.ok(sized);
      return {
        instancetype: { name: instancetype, scope: "cluster", spec: sized.spec },
        ...(preferred === undefined
          ? {}
          : { preference: { name: preferred.name, scope: "cluster", spec: preferred.spec } }),
      };
    };
    const messages = (instancetype: string, preference?: string) =>
      validateAgainstReferences("spec", vm(instancetype, preference), resolve(instancetype, preference)).map(
        (cause) => `${cause.field}: ${cause.message}`,
      );
    assert.deepEqual(messages("m1.large"), [
      "spec.instancetype: m1.large: spec.memory.hugepages: hugepages is not supported yet",
    ]);
    for (const { name, reasons } of set.preferencesNotUsableYet) {
      const refused = messages("u1.large", name);
      for (const reason of reasons)
        assert.ok(refused.includes(`spec.preference: ${name}: ${reason}`), `${name}: ${refused.join("; ")}`);
    }
  });
});
