import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { defaultVirtualMachineInstanceSpec, KUBEVIRT_DEFAULTS } from "../../api/index.js";
import { smallVmiSpec } from "../testing/fixtures.js";
import { allocatedCpu, launcherResources, memoryOverheadBytes } from "./launcher-resources.js";

const MIB = 1024n * 1024n;
const EMULATED = { useEmulation: true, cpuAllocationRatio: 10 };

describe("launcher pod resources", () => {
  test("overhead = 8 MiB + 2 MiB per vCPU + guest/512, rounded up to a MiB", () => {
    assert.equal(memoryOverheadBytes(128n * MIB, 1), 11n * MIB); // 8 + 2 + 0.25 → 11
    assert.equal(memoryOverheadBytes(1024n * MIB, 4), 18n * MIB); // 8 + 8 + 2
    assert.equal(memoryOverheadBytes(0n, 1), 10n * MIB);
  });

  test("without a CPU request the pod asks for vCPUs ÷ cpuAllocationRatio, rounded up to a millicore", () => {
    assert.equal(allocatedCpu(1, 10), "100m");
    assert.equal(allocatedCpu(1, 20), "50m");
    assert.equal(allocatedCpu(4, 2), "2");
    assert.equal(allocatedCpu(1, 3), "334m");
    const spec = defaultVirtualMachineInstanceSpec(smallVmiSpec(), KUBEVIRT_DEFAULTS, "vm");
    assert.equal(spec.domain.resources?.requests?.cpu, undefined, "the VMI itself keeps no CPU request");
    assert.equal(launcherResources(spec, { useEmulation: true, cpuAllocationRatio: 20 }).requests.cpu, "50m");
    spec.domain.cpu = { ...spec.domain.cpu, sockets: 2, cores: 2 };
    assert.equal(
      launcherResources(spec, { useEmulation: true, cpuAllocationRatio: 20 }).requests.cpu,
      "200m",
    );
  });

  test("the VMI's own CPU request wins over the ratio", () => {
    const spec = smallVmiSpec();
    spec.domain.resources = { requests: { memory: "128Mi", cpu: "300m" } };
    assert.equal(
      launcherResources(spec, { useEmulation: true, cpuAllocationRatio: 20 }).requests.cpu,
      "300m",
    );
  });

  test("a defaulted 128Mi VMI: 100m CPU, 139Mi memory, /dev/kvm in requests and limits, no other limits", () => {
    const spec = defaultVirtualMachineInstanceSpec(smallVmiSpec(), KUBEVIRT_DEFAULTS, "vm");
    assert.deepEqual(launcherResources(spec, { useEmulation: false, cpuAllocationRatio: 10 }), {
      requests: { cpu: "100m", memory: "139Mi", "devices.kubevirt.io/kvm": "1" },
      limits: { "devices.kubevirt.io/kvm": "1" },
    });
  });

  test("with emulation: no /dev/kvm, TCG's 144Mi more and, without VMI limits, no limits at all", () => {
    const spec = defaultVirtualMachineInstanceSpec(smallVmiSpec(), KUBEVIRT_DEFAULTS, "vm");
    assert.deepEqual(launcherResources(spec, EMULATED), { requests: { cpu: "100m", memory: "283Mi" } });
  });

  test("limits only where the VMI has them (memory limit plus the same overhead)", () => {
    const spec = defaultVirtualMachineInstanceSpec(
      { ...smallVmiSpec(), domain: { ...smallVmiSpec().domain, resources: { limits: { memory: "1Gi" } } } },
      KUBEVIRT_DEFAULTS,
      "vm",
    );
    const resources = launcherResources(spec, EMULATED);
    assert.deepEqual(resources.limits, { memory: "1180Mi" }, "1024 + 8 + 2 + 2 + 144 (TCG)");
    assert.equal(resources.requests.memory, "1180Mi", "the request follows the limit (KubeVirt's default)");
  });

  test("guest memory above the request (overcommit) still counts its page tables", () => {
    const spec = smallVmiSpec();
    spec.domain.memory = { guest: "2Gi" };
    spec.domain.resources = { requests: { memory: "1Gi", cpu: "2" } };
    assert.equal(launcherResources(spec, EMULATED).requests.memory, "1182Mi", "1024 + 8 + 2 + 4 + 144 (TCG)");
    assert.equal(launcherResources(spec, EMULATED).requests.cpu, "2");
  });
});
