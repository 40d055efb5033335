// The common set: KubeVirt's names and values (kubevirt/common-instancetypes v1.7.0), less what
// kubevirt-ts cannot honour, rendered with KubeVirt's labels.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { VirtualMachineInstancetypeSpecSchema } from "../../api/instancetype/instancetype-spec.js";
import { VirtualMachinePreferenceSpecSchema } from "../../api/instancetype/preference-spec.js";
import { compileValidator } from "../../api/schema/validator.js";
import { renderContextOf } from "../strategy/render-context.js";
import { renderStrategy } from "../strategy/render-strategy.js";
import { TEST_OPERATOR, testKubeVirt } from "../testing/strategy-fixtures.js";
import { TEST_TRUST } from "../testing/test-trust.js";
import { commonSet } from "./common-set.js";
import { commonInstancetypes } from "./instancetype-series.js";
import { commonPreferences } from "./os-preferences.js";
import { renderCommonInstancetypes } from "./render-common-instancetypes.js";

const sizeOf = (name: string) => {
  const found = commonInstancetypes().find((instancetype) => instancetype.name === name);
  assert.ok(found, `no instancetype ${name}`);
  return found.spec;
};

describe("the common instancetypes table", () => {
  test("the U series: KubeVirt's ten sizes, 1:4 from medium up", () => {
    const u1 = commonInstancetypes().filter((instancetype) => instancetype.series.prefix === "u1");
    assert.deepEqual(
      u1.map(
        (instancetype) =>
          `${instancetype.name}=${instancetype.spec.cpu.guest}/${instancetype.spec.memory.guest}`,
      ),
      [
        "u1.nano=1/512Mi",
        "u1.micro=1/1Gi",
        "u1.small=1/2Gi",
        "u1.medium=1/4Gi",
        "u1.2xmedium=2/4Gi",
        "u1.large=2/8Gi",
        "u1.xlarge=4/16Gi",
        "u1.2xlarge=8/32Gi",
        "u1.4xlarge=16/64Gi",
        "u1.8xlarge=32/128Gi",
      ],
    );
    assert.deepEqual(sizeOf("u1.small"), { cpu: { guest: 1 }, memory: { guest: "2Gi" } });
    assert.deepEqual(sizeOf("u1.medium"), { cpu: { guest: 1 }, memory: { guest: "4Gi" } });
  });

  test("the O series: the U sizes but 2xmedium, with 50% of the memory overcommitted", () => {
    const o1 = commonInstancetypes().filter((instancetype) => instancetype.series.prefix === "o1");
    assert.equal(o1.length, 9);
    assert.ok(!o1.some((instancetype) => instancetype.size === "2xmedium"));
    assert.deepEqual(sizeOf("o1.small"), {
      cpu: { guest: 1 },
      memory: { guest: "2Gi", overcommitPercent: 50 },
    });
    assert.deepEqual(sizeOf("o1.8xlarge"), {
      cpu: { guest: 32 },
      memory: { guest: "128Gi", overcommitPercent: 50 },
    });
  });

  test("CX and M: 1:2 and 1:8, hugepages, each size also with 1Gi pages; CX dedicated and NUMA", () => {
    assert.deepEqual(sizeOf("cx1.medium"), {
      cpu: {
        guest: 1,
        dedicatedCPUPlacement: true,
        isolateEmulatorThread: true,
        numa: { guestMappingPassthrough: {} },
        maxSockets: 1,
      },
      memory: { guest: "2Gi", hugepages: { pageSize: "2Mi" } },
      ioThreadsPolicy: "auto",
    });
    assert.deepEqual(sizeOf("cx1.8xlarge1gi").memory, { guest: "64Gi", hugepages: { pageSize: "1Gi" } });
    assert.deepEqual(sizeOf("m1.large"), {
      cpu: { guest: 2 },
      memory: { guest: "16Gi", hugepages: { pageSize: "2Mi" } },
    });
    assert.deepEqual(sizeOf("m1.8xlarge1gi").memory, { guest: "256Gi", hugepages: { pageSize: "1Gi" } });
    const count = (prefix: string) =>
      commonInstancetypes().filter((instancetype) => instancetype.series.prefix === prefix).length;
    assert.deepEqual([count("cx1"), count("m1")], [12, 10]);
  });

  test("every size and preference has the shape of the API's spec", () => {
    const instancetypes = compileValidator(VirtualMachineInstancetypeSpecSchema);
    for (const { name, spec } of commonInstancetypes())
      assert.deepEqual(instancetypes.validate(spec), [], `instancetype ${name}`);
    const preferences = compileValidator(VirtualMachinePreferenceSpecSchema);
    for (const { name, spec } of commonPreferences())
      assert.deepEqual(preferences.validate(spec), [], `preference ${name}`);
  });
});

describe("the common set as installed", () => {
  const set = commonSet();

  test("every series is installed; cx1 and m1 say why a VM cannot use them yet", () => {
    assert.deepEqual(
      [...new Set(set.instancetypes.map((instancetype) => instancetype.series.prefix))],
      ["u1", "o1", "cx1", "m1"],
    );
    assert.equal(set.instancetypes.length, commonInstancetypes().length);
    assert.deepEqual(
      set.seriesNotUsableYet.map((series) => series.name),
      ["cx1", "m1"],
    );
    const [cx1, m1] = set.seriesNotUsableYet;
    assert.ok(
      cx1?.reasons.includes("spec.memory.hugepages: hugepages is not supported yet"),
      cx1?.reasons.join(),
    );
    assert.ok(cx1?.reasons.some((reason) => reason.startsWith("spec.cpu.dedicatedCPUPlacement: ")));
    assert.deepEqual(m1?.reasons, ["spec.memory.hugepages: hugepages is not supported yet"]);
  });

  test("the common OS preferences are installed, without the hints that cannot be honoured", () => {
    const names = set.preferences.map((preference) => preference.name);
    for (const name of [
      "fedora",
      "centos.stream9",
      "rhel.9",
      "ubuntu",
      "debian",
      "cirros",
      "alpine",
      "windows.10",
    ])
      assert.ok(names.includes(name), `${name} installed`);
    const fedora = set.preferences.find((preference) => preference.name === "fedora");
    assert.deepEqual(fedora?.spec, {
      annotations: { "vm.kubevirt.io/os": "linux" },
      devices: { preferredDiskBus: "virtio", preferredInterfaceModel: "virtio", preferredRng: {} },
      firmware: { preferredEfi: { secureBoot: true } },
      features: { preferredSmm: {} },
      preferredArchitecture: "amd64",
      requirements: { architecture: "amd64", cpu: { guest: 1 }, memory: { guest: "2Gi" } },
    });
    const centos = set.preferences.find((preference) => preference.name === "centos.stream9");
    assert.equal(centos?.spec.devices?.preferredDiskDedicatedIoThread, undefined);
    assert.deepEqual(centos?.droppedFields, ["spec.devices.preferredDiskDedicatedIoThread"]);
    const windows = set.preferences.find((preference) => preference.name === "windows.10");
    assert.equal(windows?.spec.features?.preferredHyperv, undefined);
    assert.equal(windows?.spec.preferredTerminationGracePeriodSeconds, 3600);
    assert.equal(windows?.spec.devices?.preferredDiskBus, "sata");
  });

  test("preferences whose point cannot be honoured are installed, and say why a VM cannot use them yet", () => {
    const notUsable = new Map(
      set.preferencesNotUsableYet.map((preference) => [preference.name, preference.reasons]),
    );
    for (const name of ["windows.11", "windows.2k22.virtio", "rhel.9.dpdk", "windows.xp"])
      assert.ok(notUsable.has(name), `${name} not usable yet`);
    for (const name of ["fedora", "fedora.arm64", "windows.10", "cirros"])
      assert.ok(!notUsable.has(name), `${name} usable`);
    assert.match(
      notUsable.get("windows.11")?.join() ?? "",
      /spec\.devices\.preferredTPM: a TPM is not supported yet/,
    );
    assert.match(
      notUsable.get("linux.virtiotransitional")?.join() ?? "",
      /virtio transitional devices is not supported yet/,
    );
    assert.match(
      notUsable.get("rhel.9.desktop")?.join() ?? "",
      /preferredInputType/,
      "a desktop is its tablet",
    );
    assert.equal(set.preferences.length, commonPreferences().length);
    assert.equal(commonPreferences().length, 54, "v1.7.0 ships 54 cluster preferences");
  });
});

describe("renderCommonInstancetypes", () => {
  const context = renderContextOf(TEST_OPERATOR, testKubeVirt(), TEST_TRUST);

  test("cluster instancetypes labelled as KubeVirt's virt-operator labels them", () => {
    const medium = renderCommonInstancetypes(context).find((object) => object.metadata.name === "u1.medium");
    assert.equal(medium?.apiVersion, "instancetype.kubevirt.io/v1beta1");
    assert.equal(medium?.kind, "VirtualMachineClusterInstancetype");
    assert.equal(medium?.metadata.namespace, undefined);
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(medium?.metadata.labels ?? {}).filter(([key]) => key.startsWith("instancetype.")),
      ),
      {
        "instancetype.kubevirt.io/class": "general.purpose",
        "instancetype.kubevirt.io/common-instancetypes-version": "v1.7.0",
        "instancetype.kubevirt.io/cpu": "1",
        "instancetype.kubevirt.io/icon-pf": "pficon-server-group",
        "instancetype.kubevirt.io/memory": "4Gi",
        "instancetype.kubevirt.io/size": "medium",
        "instancetype.kubevirt.io/vendor": "kubevirt.io",
        "instancetype.kubevirt.io/version": "1",
      },
    );
    assert.equal(medium?.metadata.labels["app.kubernetes.io/managed-by"], "virt-operator");
    assert.equal(medium?.metadata.annotations["instancetype.kubevirt.io/displayName"], "General Purpose");
  });

  test("cluster preferences with the OS, requirement and architecture labels", () => {
    const fedora = renderCommonInstancetypes(context).find((object) => object.metadata.name === "fedora");
    assert.equal(fedora?.kind, "VirtualMachineClusterPreference");
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(fedora?.metadata.labels ?? {}).filter(([key]) => key.startsWith("instancetype.")),
      ),
      {
        "instancetype.kubevirt.io/arch": "amd64",
        "instancetype.kubevirt.io/common-instancetypes-version": "v1.7.0",
        "instancetype.kubevirt.io/os-type": "linux",
        "instancetype.kubevirt.io/preferred-architecture": "amd64",
        "instancetype.kubevirt.io/required-architecture": "amd64",
        "instancetype.kubevirt.io/required-cpu": "1",
        "instancetype.kubevirt.io/required-memory": "2Gi",
        "instancetype.kubevirt.io/vendor": "kubevirt.io",
      },
    );
    assert.equal(fedora?.metadata.annotations["openshift.io/display-name"], "Fedora (amd64)");
  });

  test("the strategy carries the set unless the CR disables it; the objects and their digest do not", () => {
    const enabled = renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST);
    const disabled = renderStrategy(
      TEST_OPERATOR,
      testKubeVirt({ configuration: { commonInstancetypesDeployment: { enabled: false } } }),
      TEST_TRUST,
    );
    assert.equal(enabled.commonInstancetypes?.length, set().instancetypes.length + set().preferences.length);
    assert.deepEqual(disabled.commonInstancetypes, []);
    assert.equal(enabled.id, disabled.id);
    assert.ok(!enabled.objects.some((object) => object.kind === "VirtualMachineClusterInstancetype"));
  });
});

function set() {
  return commonSet();
}
