// A VM's template expanded as its VMI gets it, and as expand-spec shows it: the pod network's
// default interface is there before the preference (so its model reaches it), a preference for no
// pod interface keeps it out, and the expanded VM has no matchers or refs left.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KUBEVIRT_DEFAULTS } from "../defaults/cluster-defaults.js";
import type { VirtualMachine } from "../vm/virtual-machine.js";
import { expandVirtualMachine, expandVmTemplate } from "./expand-vm.js";

const template = (): VirtualMachine["spec"]["template"] => ({
  spec: {
    domain: { devices: {} },
    volumes: [{ name: "root", containerDisk: { image: "localhost/guest" } }],
  },
});

describe("expandVmTemplate", () => {
  test("the preference's interface model reaches the default interface; every volume has a disk", () => {
    const expanded = expandVmTemplate(
      template(),
      {
        preference: { name: "p", scope: "cluster", spec: { devices: { preferredInterfaceModel: "e1000" } } },
      },
      KUBEVIRT_DEFAULTS,
    );
    assert.ok("spec" in expanded);
    assert.deepEqual(expanded.spec.domain.devices.interfaces, [
      { name: "default", [KUBEVIRT_DEFAULTS.defaultNetworkInterface]: {}, model: "e1000" },
    ]);
    assert.deepEqual(expanded.spec.networks, [{ name: "default", pod: {} }]);
    assert.equal(expanded.spec.domain.devices.disks?.[0]?.name, "root");
  });

  test("a preference for no pod interface keeps the default one out", () => {
    const expanded = expandVmTemplate(
      template(),
      {
        preference: {
          name: "p",
          scope: "cluster",
          spec: { devices: { preferredAutoattachPodInterface: false } },
        },
      },
      KUBEVIRT_DEFAULTS,
    );
    assert.ok("spec" in expanded);
    assert.equal(expanded.spec.domain.devices.interfaces, undefined);
    assert.equal(expanded.spec.networks, undefined);
  });
});

describe("expandVirtualMachine", () => {
  const vm = (): VirtualMachine => ({
    metadata: { name: "vm", namespace: "default" },
    spec: { runStrategy: "Halted", instancetype: { name: "it" }, template: template() },
    status: { instancetypeRef: { name: "it", kind: "VirtualMachineClusterInstancetype" } },
  });
  const references = {
    instancetype: {
      name: "it",
      scope: "cluster" as const,
      spec: { cpu: { guest: 2 }, memory: { guest: "1Gi" } },
    },
  };

  test("the template is expanded and defaulted; matchers and refs are gone", () => {
    const expansion = expandVirtualMachine(vm(), references, KUBEVIRT_DEFAULTS);
    assert.ok("vm" in expansion);
    const { spec, status } = expansion.vm;
    assert.equal(spec.instancetype, undefined);
    assert.equal(status?.instancetypeRef, undefined);
    assert.equal(spec.template.spec?.domain.memory?.guest, "1Gi");
    assert.equal(spec.template.spec?.domain.cpu?.sockets, 2);
    assert.equal(spec.template.metadata?.annotations?.["kubevirt.io/cluster-instancetype-name"], "it");
    assert.equal(spec.template.spec?.domain.machine?.type, KUBEVIRT_DEFAULTS.machineType);
  });

  test("a conflict is reported by path; a VM without matchers is returned as it is", () => {
    const conflicting = vm();
    const domain = conflicting.spec.template.spec?.domain;
    if (domain) domain.memory = { guest: "2Gi" };
    assert.deepEqual(expandVirtualMachine(conflicting, references, KUBEVIRT_DEFAULTS), {
      conflicts: ["spec.template.spec.domain.memory.guest"],
    });
    const plain: VirtualMachine = { metadata: { name: "plain" }, spec: { template: template() } };
    const same = expandVirtualMachine(plain, {}, KUBEVIRT_DEFAULTS);
    assert.ok("vm" in same);
    assert.equal(same.vm, plain);
  });
});
