// Expansion as KubeVirt's pkg/instancetype/apply does it: the instancetype's CPUs in the preferred
// topology, its memory (and overcommit), conflicts with the template's own values, and a
// preference that only fills what is empty.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { conflictCauses } from "./conflicts.js";
import { guestCpuTopology, spreadTopologyProblem } from "./cpu-topology.js";
import { expandSpec } from "./expand-vmi.js";
import type { VirtualMachineInstancetypeSpec } from "./instancetype-spec.js";
import { instancetypeScopeOf, preferenceScopeOf } from "./matcher-kinds.js";
import type { VirtualMachinePreferenceSpec } from "./preference-spec.js";

const BASE = "spec.template.spec";

function spec(domain: Partial<VirtualMachineInstanceSpec["domain"]> = {}): VirtualMachineInstanceSpec {
  return {
    domain: {
      devices: { disks: [{ name: "root", disk: {} }], interfaces: [{ name: "default" }] },
      ...domain,
    },
  };
}

const SMALL: VirtualMachineInstancetypeSpec = { cpu: { guest: 4 }, memory: { guest: "2Gi" } };

function expanded(
  instancetype: VirtualMachineInstancetypeSpec | undefined,
  preference: VirtualMachinePreferenceSpec | undefined,
  template = spec(),
) {
  const result = expandSpec({
    base: BASE,
    ...(instancetype ? { instancetype: { name: "it", scope: "cluster" as const, spec: instancetype } } : {}),
    ...(preference ? { preference: { name: "pref", scope: "namespaced" as const, spec: preference } } : {}),
    spec: template,
    annotations: {},
  });
  if (!("spec" in result)) throw new Error(`conflicts: ${result.conflicts.join(", ")}`);
  return result;
}

describe("CPU topology", () => {
  const cases: [string, number, VirtualMachinePreferenceSpec | undefined, [number, number, number]][] = [
    ["sockets by default", 4, undefined, [4, 1, 1]],
    ["1 vCPU is 1/1/1 whatever the preference", 1, { cpu: { preferredCPUTopology: "cores" } }, [1, 1, 1]],
    ["cores", 4, { cpu: { preferredCPUTopology: "cores" } }, [1, 4, 1]],
    ["threads (deprecated spelling)", 4, { cpu: { preferredCPUTopology: "preferThreads" } }, [1, 1, 4]],
    ["any is sockets", 4, { cpu: { preferredCPUTopology: "any" } }, [4, 1, 1]],
    ["spread: 2 cores a socket", 8, { cpu: { preferredCPUTopology: "spread" } }, [4, 2, 1]],
    [
      "spread with ratio 4",
      8,
      { cpu: { preferredCPUTopology: "spread", spreadOptions: { ratio: 4 } } },
      [2, 4, 1],
    ],
    [
      "spread over cores and threads",
      8,
      { cpu: { preferredCPUTopology: "spread", spreadOptions: { across: "CoresThreads" } } },
      [1, 4, 2],
    ],
    [
      "spread over all three",
      8,
      { cpu: { preferredCPUTopology: "spread", spreadOptions: { across: "SocketsCoresThreads" } } },
      [2, 2, 2],
    ],
    [
      "the deprecated ratio",
      6,
      { cpu: { preferredCPUTopology: "spread" }, preferSpreadSocketToCoreRatio: 3 },
      [2, 3, 1],
    ],
  ];
  for (const [what, vCpus, preference, [sockets, cores, threads]] of cases) {
    test(what, () => {
      assert.deepEqual(guestCpuTopology(vCpus, preference), { sockets, cores, threads });
    });
  }

  test("a spread that does not divide the vCPUs is a problem", () => {
    assert.match(
      spreadTopologyProblem(3, { cpu: { preferredCPUTopology: "spread" } }) ?? "",
      /not divisible/,
    );
    assert.equal(spreadTopologyProblem(4, { cpu: { preferredCPUTopology: "spread" } }), undefined);
    assert.equal(spreadTopologyProblem(3, undefined), undefined);
  });
});

describe("expandSpec", () => {
  test("the instancetype's vCPUs, memory, model, node selector and annotations; the names annotated", () => {
    const result = expanded(
      {
        ...SMALL,
        cpu: { guest: 2, model: "Skylake" },
        nodeSelector: { zone: "a" },
        annotations: { note: "it" },
      },
      undefined,
    );
    assert.deepEqual(result.spec.domain.cpu, { model: "Skylake", sockets: 2, cores: 1, threads: 1 });
    assert.equal(result.spec.domain.memory?.guest, "2Gi");
    assert.equal(result.spec.domain.resources, undefined, "no overcommit, no request");
    assert.deepEqual(result.spec.nodeSelector, { zone: "a" });
    assert.deepEqual(result.annotations, { note: "it", "kubevirt.io/cluster-instancetype-name": "it" });
  });

  test("overcommitPercent lowers the memory request below the guest memory", () => {
    const result = expanded(
      { cpu: { guest: 1 }, memory: { guest: "2Gi", overcommitPercent: 50 } },
      undefined,
    );
    assert.equal(result.spec.domain.memory?.guest, "2Gi");
    assert.equal(result.spec.domain.resources?.requests?.memory, "1Gi");
  });

  test("every CPU conflict and the first memory conflict, with KubeVirt's paths and message", () => {
    const template = spec({
      cpu: { sockets: 2, cores: 2, model: "host-model" },
      memory: { guest: "1Gi" },
      resources: { requests: { cpu: "1", memory: "1Gi" } },
    });
    const result = expandSpec({
      base: BASE,
      instancetype: { name: "it", scope: "cluster", spec: { ...SMALL, cpu: { guest: 2, model: "Skylake" } } },
      spec: template,
      annotations: {},
    });
    assert.deepEqual(result.conflicts, [
      "spec.template.spec.domain.resources.requests.cpu",
      "spec.template.spec.domain.cpu.sockets",
      "spec.template.spec.domain.cpu.cores",
      "spec.template.spec.domain.cpu.model",
      "spec.template.spec.domain.memory.guest",
    ]);
    assert.deepEqual(conflictCauses(["spec.template.spec.domain.cpu.sockets"]), [
      {
        reason: "FieldValueInvalid",
        field: "spec.template.spec.domain.cpu.sockets",
        message: "VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type",
      },
    ]);
    assert.equal(template.domain.cpu?.threads, undefined, "the input is not modified");
  });

  test("a CPU model the instancetype does not set is no conflict", () => {
    const result = expanded(SMALL, undefined, spec({ cpu: { model: "host-passthrough" } }));
    assert.equal(result.spec.domain.cpu?.model, "host-passthrough");
  });

  test("a preference fills only what the template leaves empty", () => {
    const template = spec({ machine: { type: "pc-q35-8.2" } });
    template.domain.devices.disks = [
      { name: "root", disk: {} },
      { name: "data", disk: { bus: "scsi" } },
      { name: "iso", cdrom: {} },
    ];
    template.terminationGracePeriodSeconds = 5;
    const result = expanded(
      SMALL,
      {
        cpu: { preferredCPUTopology: "cores", preferredCPUFeatures: [{ name: "vmx" }] },
        devices: {
          preferredDiskBus: "virtio",
          preferredCdromBus: "sata",
          preferredInterfaceModel: "e1000",
          preferredRng: {},
          preferredAutoattachSerialConsole: true,
        },
        features: { preferredSmm: {} },
        firmware: { preferredEfi: { secureBoot: false } },
        machine: { preferredMachineType: "pc-q35-9.0" },
        clock: { preferredClockOffset: { utc: { offsetSeconds: 60 } } },
        preferredTerminationGracePeriodSeconds: 180,
        annotations: { owner: "pref" },
      },
      template,
    );
    const { domain } = result.spec;
    assert.deepEqual([domain.cpu?.sockets, domain.cpu?.cores], [1, 4]);
    assert.deepEqual(domain.cpu?.features, [{ name: "vmx" }]);
    assert.deepEqual(
      domain.devices.disks?.map((disk) => disk.disk?.bus ?? disk.cdrom?.bus),
      ["virtio", "scsi", "sata"],
    );
    assert.equal(domain.devices.interfaces?.[0]?.model, "e1000");
    assert.deepEqual(domain.devices.rng, {});
    assert.equal(domain.devices.autoattachSerialConsole, true);
    assert.deepEqual(domain.features?.smm, {});
    assert.deepEqual(domain.firmware?.bootloader, { efi: { secureBoot: false } });
    assert.equal(domain.machine?.type, "pc-q35-8.2", "the template's machine type stays");
    assert.deepEqual(domain.clock, { utc: { offsetSeconds: 60 } });
    assert.equal(result.spec.terminationGracePeriodSeconds, 5, "the template's grace period stays");
    assert.equal(result.annotations.owner, "pref");
    assert.equal(result.annotations["kubevirt.io/preference-name"], "pref");
  });

  test("a preference without an instancetype applies alone", () => {
    const result = expanded(undefined, { machine: { preferredMachineType: "pc-q35-9.0" } });
    assert.equal(result.spec.domain.machine?.type, "pc-q35-9.0");
    assert.equal(result.spec.domain.cpu, undefined);
  });
});

describe("matcher kinds", () => {
  test("lower-case singular and plural names, any case; empty is the cluster kind", () => {
    assert.equal(instancetypeScopeOf(undefined), "cluster");
    assert.equal(instancetypeScopeOf("VirtualMachineClusterInstancetype"), "cluster");
    assert.equal(instancetypeScopeOf("virtualmachineinstancetypes"), "namespaced");
    assert.equal(instancetypeScopeOf("virtualmachinepreference"), undefined);
    assert.equal(preferenceScopeOf("VirtualMachinePreference"), "namespaced");
    assert.equal(preferenceScopeOf("virtualmachineclusterpreferences"), "cluster");
    assert.equal(preferenceScopeOf("foo"), undefined);
  });
});
