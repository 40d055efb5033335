import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import { snapshotOf } from "./cluster-config.js";

function kubevirt(name: string, created: string, configuration: KubeVirt["spec"]["configuration"] = {}) {
  return deepFreeze<KubeVirt>({
    metadata: { name, namespace: "kubevirt", uid: name, creationTimestamp: created },
    spec: { configuration },
  });
}

describe("the KubeVirt CR as configuration", () => {
  test("none: KubeVirt's defaults (KVM, no CPU request, 10 vCPUs a CPU, q35)", () => {
    const snapshot = snapshotOf(undefined);
    assert.equal(snapshot.useEmulation, false);
    assert.equal(snapshot.source, undefined);
    assert.deepEqual(snapshot.featureGates, []);
    assert.equal(snapshot.defaults.cpuRequest, undefined);
    assert.equal(snapshot.defaults.cpuAllocationRatio, 10);
    assert.equal(snapshot.defaults.machineType, "q35");
  });

  test("developerConfiguration.useEmulation and the defaulting settings are read", () => {
    const snapshot = snapshotOf(
      kubevirt("kv", "2024-01-01T00:00:00Z", {
        developerConfiguration: {
          useEmulation: true,
          featureGates: ["HostDisk", "Snapshot"],
          disabledFeatureGates: ["Snapshot"],
          cpuAllocationRatio: 20,
        },
        cpuRequest: "250m",
      }),
    );
    assert.equal(snapshot.useEmulation, true);
    assert.deepEqual(snapshot.featureGates, ["HostDisk"], "enabled and not disabled");
    assert.equal(snapshot.defaults.cpuRequest?.text, "250m");
    assert.equal(snapshot.defaults.cpuAllocationRatio, 20);
    assert.equal(snapshot.source, "kubevirt/kv");
  });
});
