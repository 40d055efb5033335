// Accepted means honoured: fields kubevirt-ts cannot act on yet are refused at admission with their
// path ("... is not supported yet"); the values that ask for nothing stay accepted.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withEdits } from "../testing/json-edit.js";
import { loadTestManifest } from "../testing/testdata.js";
import {
  validateKubeVirt,
  validateVirtualMachine,
  validateVirtualMachineInstance,
  validateVirtualMachineInstanceReplicaSet,
} from "./object-validation.js";

const vmiCauses = (...edits: [string, unknown][]) =>
  validateVirtualMachineInstance(withEdits(loadTestManifest("vmi-emptydisk.yaml"), ...edits));

const notSupportedYet = (causes: { field: string; message: string }[]) =>
  causes.filter((cause) => cause.message.includes("is not supported yet")).map((cause) => cause.field);

describe("fields not supported yet, refused at admission", () => {
  test("CPU, memory, firmware and feature settings nothing applies", () => {
    const causes = vmiCauses(
      ["spec.domain.cpu", { cores: 1, dedicatedCpuPlacement: true, numa: { guestMappingPassthrough: {} } }],
      ["spec.domain.memory", { hugepages: { pageSize: "2Mi" } }],
      ["spec.domain.features", { hyperv: { relaxed: {} }, kvm: { hidden: true } }],
      ["spec.domain.chassis", { serial: "1" }],
      ["spec.evictionStrategy", "LiveMigrate"],
    );
    assert.deepEqual(notSupportedYet(causes), [
      "spec.evictionStrategy",
      "spec.domain.cpu.dedicatedCpuPlacement",
      "spec.domain.cpu.numa",
      "spec.domain.memory.hugepages",
      "spec.domain.features.hyperv",
      "spec.domain.features.kvm.hidden",
      "spec.domain.chassis",
    ]);
    assert.match(
      causes.find((cause) => cause.field === "spec.domain.cpu.dedicatedCpuPlacement")?.message ?? "",
      /^spec\.domain\.cpu\.dedicatedCpuPlacement is not supported yet$/,
    );
  });

  test("devices, disks, interfaces, networks and volume sources", () => {
    const causes = vmiCauses(
      ["spec.domain.devices.watchdog", { name: "wd", i6300esb: {} }],
      ["spec.domain.devices.blockMultiQueue", true],
      ["spec.domain.devices.disks[1].dedicatedIOThread", true],
      ["spec.domain.devices.disks[2].tag", "seed"],
      ["spec.domain.devices.interfaces", [{ name: "default", masquerade: {}, acpiIndex: 3 }]],
      ["spec.networks", [{ name: "default", pod: { vmIPv6NetworkCIDR: "fd10::/64" } }]],
      ["spec.volumes[1]", { name: "emptydisk", configMap: { name: "settings" } }],
    );
    assert.deepEqual(notSupportedYet(causes), [
      "spec.domain.devices.watchdog",
      "spec.domain.devices.blockMultiQueue",
      "spec.domain.devices.disks[1].dedicatedIOThread",
      "spec.domain.devices.disks[2].tag",
      "spec.domain.devices.interfaces[0].acpiIndex",
      "spec.networks[0].pod.vmIPv6NetworkCIDR",
      "spec.volumes[1].configMap",
    ]);
  });

  test("what asks for nothing stays accepted: false, an empty list, a disabled TPM, None", () => {
    assert.deepEqual(
      vmiCauses(
        ["spec.domain.devices.blockMultiQueue", false],
        ["spec.domain.devices.autoattachVSOCK", false],
        ["spec.domain.devices.gpus", []],
        ["spec.domain.devices.tpm", { enabled: false }],
        ["spec.domain.devices.disks[1].dedicatedIOThread", false],
        ["spec.evictionStrategy", "None"],
        ["spec.domain.devices.logSerialConsole", false],
        ["spec.domain.devices.autoattachInputDevice", true],
      ),
      [],
    );
  });

  test("a VM's template and a replica set's template are checked at their own paths", () => {
    const vm = validateVirtualMachine(
      withEdits(loadTestManifest("vm-cirros.yaml"), [
        "spec.template.spec.domain.devices.sound",
        { name: "s" },
      ]),
    );
    assert.deepEqual(notSupportedYet(vm), ["spec.template.spec.domain.devices.sound"]);
    const replicaSet = validateVirtualMachineInstanceReplicaSet(
      withEdits(loadTestManifest("vmirs-cirros.yaml"), ["spec.template.spec.domain.ioThreadsPolicy", "auto"]),
    );
    assert.deepEqual(notSupportedYet(replicaSet), ["spec.template.spec.domain.ioThreadsPolicy"]);
  });

  test("KubeVirt CR settings no component reads; the ones read stay accepted", () => {
    const causes = validateKubeVirt(
      withEdits(
        loadTestManifest("kubevirt-cr.yaml"),
        ["spec.configuration.evictionStrategy", "LiveMigrate"],
        ["spec.configuration.tlsConfiguration", { minTLSVersion: "VersionTLS13" }],
        ["spec.configuration.developerConfiguration.logVerbosity", { virtHandler: 4 }],
        ["spec.configuration.cpuModel", "Haswell"],
        ["spec.configuration.machineType", "q35"],
      ),
    );
    assert.deepEqual(notSupportedYet(causes), [
      "spec.configuration.evictionStrategy",
      "spec.configuration.tlsConfiguration",
      "spec.configuration.developerConfiguration.logVerbosity",
    ]);
    assert.deepEqual(validateKubeVirt(loadTestManifest("kubevirt-cr.yaml")), []);
  });
});

describe("KubeVirt's defaulting makes valid what it completes", () => {
  test("a CD-ROM naming no volume is an empty tray; a plain disk naming none is still refused", () => {
    assert.deepEqual(
      vmiCauses(["spec.domain.devices.disks[3]", { name: "media", cdrom: { bus: "sata" } }]),
      [],
    );
    const plain = vmiCauses(["spec.domain.devices.disks[3]", { name: "ghost", disk: {} }]);
    assert.deepEqual(
      plain.map((cause) => cause.field),
      ["spec.domain.devices.disks[3].name"],
    );
  });
});
