// `virtctl create instancetype` and `virtctl create preference`: KubeVirt's manifests and refusals.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildInstancetypeManifest } from "./instancetype-manifest.js";
import { buildPreferenceManifest } from "./preference-manifest.js";

const suffix = () => "abcde";

describe("buildInstancetypeManifest", () => {
  test("a cluster instancetype by default, named clusterinstancetype-xxxxx", () => {
    assert.deepEqual(buildInstancetypeManifest({ cpu: "2", memory: "4Gi" }, suffix), {
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterInstancetype",
      metadata: { name: "clusterinstancetype-abcde" },
      spec: { cpu: { guest: 2 }, memory: { guest: "4Gi" } },
    });
  });

  test("--namespaced, or a namespace, makes a VirtualMachineInstancetype; --iothreadspolicy is kept", () => {
    assert.deepEqual(
      buildInstancetypeManifest(
        { cpu: "1", memory: "512Mi", namespaced: true, iothreadspolicy: "shared" },
        suffix,
      ),
      {
        apiVersion: "instancetype.kubevirt.io/v1beta1",
        kind: "VirtualMachineInstancetype",
        metadata: { name: "instancetype-abcde" },
        spec: { cpu: { guest: 1 }, memory: { guest: "512Mi" }, ioThreadsPolicy: "shared" },
      },
    );
    const inNamespace = buildInstancetypeManifest({
      name: "mine",
      cpu: "1",
      memory: "1Gi",
      namespace: "team-a",
    });
    assert.deepEqual(
      [inNamespace.kind, inNamespace.metadata],
      ["VirtualMachineInstancetype", { name: "mine", namespace: "team-a" }],
    );
  });

  test("refusals", () => {
    const refused = (flags: Parameters<typeof buildInstancetypeManifest>[0], message: string) =>
      assert.throws(() => buildInstancetypeManifest(flags, suffix), { message });
    refused({}, 'required flag(s) "cpu", "memory" not set');
    refused({ cpu: "2" }, 'required flag(s) "memory" not set');
    refused({ cpu: "0", memory: "1Gi" }, "cpu value must be greater than zero");
    refused(
      { cpu: "two", memory: "1Gi" },
      'invalid argument "two" for "--cpu" flag: not an unsigned integer',
    );
    refused(
      { cpu: "1", memory: "lots" },
      'failed to parse "--memory" flag: "lots" is not a memory size such as 512Mi or 2Gi',
    );
    refused(
      { cpu: "1", memory: "1Gi", iothreadspolicy: "dedicated" },
      'failed to parse "--iothreadspolicy" flag: IOThread must be of value auto or shared',
    );
  });
});

describe("buildPreferenceManifest", () => {
  test("an empty cluster preference by default, named clusterpreference-xxxxx", () => {
    assert.deepEqual(buildPreferenceManifest({}, suffix), {
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterPreference",
      metadata: { name: "clusterpreference-abcde" },
      spec: {},
    });
  });

  test("the topology, storage class and machine type flags; namespaced", () => {
    assert.deepEqual(
      buildPreferenceManifest(
        {
          name: "p",
          cpuTopology: "cores",
          volumeStorageClass: "local-path",
          machineType: "q35",
          namespace: "team-a",
        },
        suffix,
      ),
      {
        apiVersion: "instancetype.kubevirt.io/v1beta1",
        kind: "VirtualMachinePreference",
        metadata: { name: "p", namespace: "team-a" },
        spec: {
          cpu: { preferredCPUTopology: "cores" },
          volumes: { preferredStorageClassName: "local-path" },
          machine: { preferredMachineType: "q35" },
        },
      },
    );
    assert.equal(buildPreferenceManifest({ namespaced: true }, suffix).metadata?.name, "preference-abcde");
  });

  test("an unknown topology is refused", () => {
    assert.throws(() => buildPreferenceManifest({ cpuTopology: "rings" }), {
      message:
        'failed to parse "--cpu-topology" flag: CPU topology must have a value of sockets, cores, threads or spread',
    });
  });
});
