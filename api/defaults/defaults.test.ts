import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { KubeVirtKind } from "../kubevirt/kubevirt.js";
import { VirtualMachineInstanceReplicaSetKind } from "../replicaset/virtual-machine-instance-replica-set.js";
import type { SchemaValidator } from "../schema/validator.js";
import { withEdits } from "../testing/json-edit.js";
import { loadTestManifest } from "../testing/testdata.js";
import { validateVirtualMachineInstance } from "../validation/object-validation.js";
import { effectiveRunStrategy } from "../validation/vm-validation.js";
import { VirtualMachineKind } from "../vm/virtual-machine.js";
import { VirtualMachineInstanceKind } from "../vmi/virtual-machine-instance.js";
import { clusterDefaultsFrom, KUBEVIRT_DEFAULTS } from "./cluster-defaults.js";
import { legacyFirmwareUuid } from "./firmware-uuid.js";
import { defaultPullPolicy } from "./image-pull-policy.js";
import { defaultKubeVirt, defaultVirtualMachineInstanceReplicaSet } from "./other-defaults.js";
import { defaultVirtualMachine } from "./vm-defaults.js";
import { defaultVirtualMachineInstance, withVolumeDisks } from "./vmi-defaults.js";

function typed<T>(validator: SchemaValidator<T>, value: unknown): T {
  if (!validator.check(value)) assert.fail(JSON.stringify(validator.validate(value)));
  return value;
}

const vmiFrom = (...edits: [string, unknown][]) =>
  typed(VirtualMachineInstanceKind.validator, withEdits(loadTestManifest("vmi-emptydisk.yaml"), ...edits));

describe("VMI defaults", () => {
  test("fill what virt-api's mutating webhook fills, without touching the input", () => {
    const vmi = vmiFrom();
    const before = structuredClone(vmi);
    const defaulted = defaultVirtualMachineInstance(vmi);
    assert.deepEqual(vmi, before);
    const spec = defaulted.spec;
    assert.equal(spec.domain.machine?.type, "q35");
    assert.equal(spec.domain.cpu?.model, "host-model");
    assert.deepEqual([spec.domain.cpu?.sockets, spec.domain.cpu?.cores, spec.domain.cpu?.threads], [1, 1, 1]);
    assert.equal(spec.domain.memory?.guest, "128Mi");
    assert.equal(spec.domain.resources?.requests?.cpu, "500m");
    assert.equal(spec.architecture, "amd64");
    assert.equal(spec.terminationGracePeriodSeconds, 0, "an explicit 0 stays");
    assert.equal(spec.volumes?.[0]?.containerDisk?.imagePullPolicy, "Always", "untagged image");
    assert.deepEqual(spec.domain.devices.interfaces, [{ name: "default", bridge: {} }]);
    assert.deepEqual(spec.networks, [{ name: "default", pod: {} }]);
    assert.deepEqual(spec.domain.features?.acpi, { enabled: true });
    assert.equal(spec.domain.firmware?.uuid, legacyFirmwareUuid("vmi-emptydisk"));
  });

  test("is idempotent", () => {
    const once = defaultVirtualMachineInstance(vmiFrom());
    assert.deepEqual(defaultVirtualMachineInstance(once), once);
  });

  test("CPU: no request of the VMI's own, sockets from limits, requests copied from limits", () => {
    const noCpu = defaultVirtualMachineInstance(
      vmiFrom(["spec.domain.cpu", undefined], ["spec.domain.resources.requests.cpu", undefined]),
    );
    // KubeVirt's: the launcher pod asks for vCPUs ÷ cpuAllocationRatio; the VMI keeps no request.
    assert.equal(noCpu.spec.domain.resources?.requests?.cpu, undefined);
    assert.equal(noCpu.spec.domain.cpu?.sockets, 1);
    const limited = defaultVirtualMachineInstance(
      vmiFrom(
        ["spec.domain.cpu", undefined],
        ["spec.domain.resources.requests.cpu", undefined],
        ["spec.domain.resources.limits", { cpu: "3" }],
      ),
    );
    assert.equal(limited.spec.domain.resources?.requests?.cpu, "3");
    assert.equal(limited.spec.domain.cpu?.sockets, 3);
    const dedicated = defaultVirtualMachineInstance(
      vmiFrom(
        ["spec.domain.cpu", { dedicatedCpuPlacement: true, cores: 2 }],
        ["spec.domain.resources.requests.cpu", undefined],
      ),
    );
    assert.equal(dedicated.spec.domain.resources?.requests?.cpu, undefined);
    assert.deepEqual([dedicated.spec.domain.cpu?.sockets, dedicated.spec.domain.cpu?.threads], [1, 1]);
  });

  test("memory: the request follows memory.guest, less the cluster's overcommit", () => {
    const cluster = { ...KUBEVIRT_DEFAULTS, memoryOvercommitPercent: 150 };
    const defaulted = defaultVirtualMachineInstance(
      vmiFrom(["spec.domain.resources.requests.memory", undefined], ["spec.domain.memory", { guest: "3Gi" }]),
      cluster,
    );
    assert.equal(defaulted.spec.domain.resources?.requests?.memory, "2Gi");
    assert.equal(defaulted.spec.domain.memory?.guest, "3Gi");
  });

  test("disk targets, cdroms, watchdogs, probes", () => {
    const defaulted = defaultVirtualMachineInstance(
      vmiFrom(
        ["spec.domain.devices.disks[0]", { name: "containerdisk" }],
        ["spec.domain.devices.disks[1]", { name: "emptydisk", cdrom: { bus: "sata" } }],
        ["spec.domain.devices.watchdog", { name: "wd" }],
        ["spec.readinessProbe", { guestAgentPing: {}, periodSeconds: 0 }],
      ),
    );
    const devices = defaulted.spec.domain.devices;
    assert.deepEqual(devices.disks?.[0], { name: "containerdisk", disk: {} });
    assert.deepEqual(devices.disks?.[1]?.cdrom, { bus: "sata", readonly: true, tray: "closed" });
    assert.deepEqual(devices.watchdog, { name: "wd", i6300esb: { action: "reset" } });
    const probe = defaulted.spec.readinessProbe;
    assert.deepEqual(
      [probe?.timeoutSeconds, probe?.periodSeconds, probe?.successThreshold, probe?.failureThreshold],
      [1, 10, 1, 3],
    );
  });

  test("no pod network when autoattachPodInterface is false or interfaces exist", () => {
    const off = defaultVirtualMachineInstance(vmiFrom(["spec.domain.devices.autoattachPodInterface", false]));
    assert.equal(off.spec.networks, undefined);
    const masquerade = defaultVirtualMachineInstance(vmiFrom(), {
      ...KUBEVIRT_DEFAULTS,
      defaultNetworkInterface: "masquerade",
    });
    assert.deepEqual(masquerade.spec.domain.devices.interfaces, [{ name: "default", masquerade: {} }]);
  });

  test("withVolumeDisks adds a disk for each unused volume", () => {
    const spec = vmiFrom(["spec.domain.devices.disks[1]", undefined]).spec;
    assert.deepEqual(
      withVolumeDisks(spec).domain.devices.disks?.map((disk) => disk.name),
      ["containerdisk", "cloudinitdisk", "emptydisk"],
    );
  });

  test("a VMI's volume without a disk gets one, as KubeVirt's SetDefaultVolumeDisk adds it", () => {
    const vmi = vmiFrom(["spec.domain.devices.disks", [{ name: "containerdisk", disk: { bus: "sata" } }]]);
    const disks = defaultVirtualMachineInstance(vmi).spec.domain.devices.disks;
    assert.deepEqual(disks, [
      { name: "containerdisk", disk: { bus: "sata" } },
      { name: "emptydisk", disk: {} },
      { name: "cloudinitdisk", disk: {} },
    ]);
    assert.deepEqual(validateVirtualMachineInstance(defaultVirtualMachineInstance(vmi)), []);
  });
});

describe("VM, replica set and KubeVirt defaults", () => {
  test("a VM's template gets the API defaults, machine type and stable firmware UUID", () => {
    const vm = typed(VirtualMachineKind.validator, loadTestManifest("vm-cirros.yaml"));
    const defaulted = defaultVirtualMachine(vm);
    const domain = defaulted.spec.template.spec?.domain;
    assert.equal(domain?.machine?.type, "q35", "an empty machine type is defaulted");
    assert.equal(domain?.firmware?.uuid, "0d2a2043-41c0-59c3-9b17-025022203668");
    assert.equal(
      domain?.resources?.requests?.cpu,
      undefined,
      "requests are defaulted on the VMI, not the VM",
    );
    assert.equal(defaulted.spec.running, false, "running is kept as written");
    assert.equal(effectiveRunStrategy(defaulted.spec), "Halted");
  });

  test("a replica set has one replica by default", () => {
    const rs = typed(
      VirtualMachineInstanceReplicaSetKind.validator,
      withEdits(loadTestManifest("vmirs-cirros.yaml"), ["spec.replicas", undefined]),
    );
    assert.equal(defaultVirtualMachineInstanceReplicaSet(rs).spec.replicas, 1);
  });

  test("the KubeVirt CR gets the operator's defaults", () => {
    const kv = defaultKubeVirt(typed(KubeVirtKind.validator, loadTestManifest("kubevirt-cr.yaml")));
    assert.equal(kv.spec.uninstallStrategy, "BlockUninstallIfWorkloadsExist");
    assert.equal(kv.spec.workloadUpdateStrategy?.batchEvictionSize, 10);
    assert.equal(kv.spec.workloadUpdateStrategy?.batchEvictionInterval, "1m0s");
  });

  test("cluster defaults come from the KubeVirt CR's configuration", () => {
    const cluster = clusterDefaultsFrom({
      machineType: "pc-q35-9.0",
      cpuRequest: "250m",
      network: { defaultNetworkInterface: "masquerade" },
      developerConfiguration: { memoryOvercommit: 120, cpuAllocationRatio: 25 },
    });
    assert.equal(cluster.machineType, "pc-q35-9.0");
    assert.equal(cluster.cpuAllocationRatio, 25);
    assert.equal(cluster.cpuRequest?.milliValue(), 250);
    assert.equal(cluster.defaultNetworkInterface, "masquerade");
    assert.equal(cluster.memoryOvercommitPercent, 120);
    assert.equal(clusterDefaultsFrom(undefined), KUBEVIRT_DEFAULTS);
    const withRequest = defaultVirtualMachineInstance(
      vmiFrom(["spec.domain.resources.requests.cpu", undefined]),
      clusterDefaultsFrom({ cpuRequest: "250m" }),
    );
    assert.equal(
      withRequest.spec.domain.resources?.requests?.cpu,
      "250m",
      "a cluster cpuRequest is the VMI's",
    );
  });

  test("pull policy: Always for latest or untagged images", () => {
    assert.equal(defaultPullPolicy("quay.io/kubevirt/cirros"), "Always");
    assert.equal(defaultPullPolicy("registry:5000/cirros:latest"), "Always");
    assert.equal(defaultPullPolicy("registry:5000/cirros:devel"), "IfNotPresent");
    assert.equal(defaultPullPolicy("registry:5000/cirros"), "Always");
    assert.equal(defaultPullPolicy("quay.io/cirros@sha256:abcd"), "IfNotPresent");
  });
});
