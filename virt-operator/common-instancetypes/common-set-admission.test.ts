// What the operator installs is what the cluster admits and can run: every instancetype and
// preference passes virt-api's rules, and a VM of each preference (on u1.large, which meets every
// preference's requirements) expands into a VMI that admission accepts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  defaultVirtualMachineInstance,
  expandSpec,
  type VirtualMachineInstance,
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
    for (const preference of set.preferences) {
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
});
