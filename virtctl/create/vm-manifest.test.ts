// `virtctl create vm`'s manifest from flags: KubeVirt's defaults, names and refusals.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildVmManifest, CREATE_VM_DEFAULTS, type CreateVmFlags, generatedName } from "./vm-manifest.js";

const flags = (overrides: Partial<CreateVmFlags> = {}): CreateVmFlags => ({
  ...CREATE_VM_DEFAULTS,
  volumeContainerdisk: [],
  ...overrides,
});

describe("buildVmManifest", () => {
  test("defaults: a generated name, runStrategy Always, 180 s grace, 512Mi guest memory, no volumes", () => {
    const vm = buildVmManifest(flags(), () => "vm-abcde");
    assert.deepEqual(vm, {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachine",
      metadata: { name: "vm-abcde" },
      spec: {
        runStrategy: "Always",
        template: {
          spec: { domain: { devices: {}, memory: { guest: "512Mi" } }, terminationGracePeriodSeconds: 180 },
        },
      },
    });
    assert.match(generatedName(), /^vm-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  test("containerdisks are named after the VM unless named; a boot order lists the disk; cloud-init is one NoCloud volume", () => {
    const vm = buildVmManifest(
      flags({
        name: "web",
        volumeContainerdisk: ["src:registry:5000/fedora:40", "src:localhost/tools:1,name:tools,bootorder:2"],
        cloudInitUserData: "I2Nsb3VkLWNvbmZpZwo=",
      }),
    );
    const spec = vm.spec.template.spec;
    assert.deepEqual(spec?.volumes, [
      { name: "web-containerdisk-0", containerDisk: { image: "registry:5000/fedora:40" } },
      { name: "tools", containerDisk: { image: "localhost/tools:1" } },
      { name: "cloudinitdisk", cloudInitNoCloud: { userDataBase64: "I2Nsb3VkLWNvbmZpZwo=" } },
    ]);
    assert.deepEqual(spec?.domain.devices.disks, [{ name: "tools", bootOrder: 2 }]);
  });

  test("bad flags are refused with what is wrong", () => {
    const refused = (overrides: Partial<CreateVmFlags>, message: RegExp) =>
      assert.throws(() => buildVmManifest(flags(overrides)), message);
    refused(
      { runStrategy: "Sometimes" },
      /invalid --run-strategy "Sometimes", supported values are: Always, RerunOnFailure, Manual, Halted, Once$/,
    );
    refused({ memory: "lots" }, /--memory "lots" is not a memory size/);
    refused({ cloudInitUserData: "not base64!" }, /--cloud-init-user-data must be base64/);
    refused({ volumeContainerdisk: ["name:x"] }, /src must be specified/);
    refused(
      { volumeContainerdisk: ["src:a,size:1Gi"] },
      /unknown param "size" \(supported: src, name, bootorder\)/,
    );
    refused({ volumeContainerdisk: ["src:a,name:x", "src:b,name:x"] }, /already a volume named "x"/);
    refused({ volumeContainerdisk: ["src:a,bootorder:0"] }, /bootorder must be an integer greater than 0/);
  });
});
