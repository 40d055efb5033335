import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { defaultVirtualMachineInstanceSpec, KUBEVIRT_DEFAULTS, vmiPullSecretNames } from "../../api/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { renderLauncherPod } from "./launcher-pod.js";

function vmiWithImages(): VirtualMachineInstance {
  const spec = smallVmiSpec();
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachineInstance",
    metadata: { name: "vm1", namespace: "tenant", uid: "0b3c9e5e-0000-4000-8000-000000000001" },
    spec: {
      ...spec,
      domain: {
        ...spec.domain,
        firmware: {
          kernelBoot: {
            container: { image: "registry.example/kernels:6", imagePullSecret: "kernels", kernelPath: "/k" },
          },
        },
        devices: { disks: [], autoattachPodInterface: false },
      },
      volumes: [
        { name: "a", containerDisk: { image: "registry.example/a:1", imagePullSecret: "shared" } },
        { name: "b", containerDisk: { image: "registry.example/b:1", imagePullSecret: "shared" } },
        { name: "c", containerDisk: { image: "registry.example/c:1" } },
      ],
    },
  };
}

describe("launcher pod pull secrets", () => {
  test("the VMI's imagePullSecrets, then the service account's, each once, in KubeVirt's order", () => {
    assert.deepEqual(vmiPullSecretNames(vmiWithImages().spec, ["robot", "shared"]), [
      "shared",
      "kernels",
      "robot",
    ]);
  });

  test("each is in spec.imagePullSecrets and an optional secret volume of its .dockerconfigjson", () => {
    const vmi = vmiWithImages();
    const spec = defaultVirtualMachineInstanceSpec(vmi.spec, KUBEVIRT_DEFAULTS, "vm1");
    const pod = renderLauncherPod(vmi, spec, {
      image: "virt-launcher",
      useEmulation: true,
      cpuAllocationRatio: 10,
      pullSecrets: vmiPullSecretNames(spec, ["robot"]),
    });
    assert.deepEqual(pod.spec?.imagePullSecrets, [
      { name: "shared" },
      { name: "kernels" },
      { name: "robot" },
    ]);
    const volumes = (pod.spec?.volumes ?? []).filter((volume) =>
      volume.name.startsWith("image-pull-secret-"),
    );
    assert.deepEqual(
      volumes.map((volume) => [volume.name, volume.secret?.secretName, volume.secret?.optional]),
      [
        ["image-pull-secret-0", "shared", true],
        ["image-pull-secret-1", "kernels", true],
        ["image-pull-secret-2", "robot", true],
      ],
    );
    assert.deepEqual(volumes[0]?.secret?.items, [{ key: ".dockerconfigjson", path: ".dockerconfigjson" }]);
  });

  test("without pull secrets the pod names none", () => {
    const vmi = vmiWithImages();
    const spec = defaultVirtualMachineInstanceSpec(smallVmiSpec(), KUBEVIRT_DEFAULTS, "vm1");
    const pod = renderLauncherPod(vmi, spec, {
      image: "virt-launcher",
      useEmulation: true,
      cpuAllocationRatio: 10,
    });
    assert.equal(pod.spec?.imagePullSecrets, undefined);
  });
});
