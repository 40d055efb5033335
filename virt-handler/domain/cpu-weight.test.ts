import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Pod } from "../kinds.js";
import { cpuSharesOf, launcherCpuShares, STARTING_CPU_SHARES } from "./cpu-weight.js";

const pod = (...cpus: (string | undefined)[]): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "virt-launcher-vm-abcde" },
  spec: {
    containers: cpus.map((cpu, index) => ({
      name: `c${index}`,
      ...(cpu === undefined ? {} : { resources: { requests: { cpu } } }),
    })),
  },
});

describe("a VM's CPU weight", () => {
  test("is the kubelet's cpu.shares for its launcher pod's CPU request", () => {
    assert.equal(cpuSharesOf("100m"), 102);
    assert.equal(cpuSharesOf("50m"), 51);
    assert.equal(cpuSharesOf("2"), 2048);
    assert.equal(cpuSharesOf(undefined), 2, "no request: the smallest weight");
    assert.equal(launcherCpuShares(pod("50m", "10m")), 61, "all containers' requests");
    assert.equal(launcherCpuShares(pod(undefined)), 2);
    assert.equal(launcherCpuShares(undefined), undefined, "no pod: unknown");
  });

  test("a starting domain outweighs any running guest of up to 8 vCPUs", () => {
    assert.ok(STARTING_CPU_SHARES > cpuSharesOf("8"));
  });
});
