// Inference as KubeVirt's pkg/instancetype/infer does it: the labels of the volume's claim or
// DataVolume become the matcher's name and kind; the Ignore policy drops a matcher whose volume
// cannot say (and, for the instancetype, the fallback memory once it can); a missing volume or
// claim refuses the VM whatever the policy.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DataVolumeSpec } from "../vm/data-volume-template.js";
import type { VirtualMachine } from "../vm/virtual-machine.js";
import {
  DEFAULT_INSTANCETYPE_KIND_LABEL,
  DEFAULT_INSTANCETYPE_LABEL,
  DEFAULT_PREFERENCE_KIND_LABEL,
  DEFAULT_PREFERENCE_LABEL,
  InferenceError,
  type InferenceSource,
  inferMatchers,
  needsInference,
} from "./infer-from-volume.js";

type Labels = Record<string, string>;

/** An in-memory API server: claims and DataVolumes by `namespace/name`, and what was read. */
class FakeSource implements InferenceSource {
  readonly claims = new Map<string, Labels>();
  readonly dataVolumes = new Map<string, { labels?: Labels; spec?: DataVolumeSpec }>();
  readonly reads: string[] = [];

  async claimLabels(namespace: string, name: string) {
    this.reads.push(`pvc ${namespace}/${name}`);
    return this.claims.get(`${namespace}/${name}`);
  }

  async dataVolume(namespace: string, name: string) {
    this.reads.push(`dv ${namespace}/${name}`);
    return this.dataVolumes.get(`${namespace}/${name}`);
  }
}

const SIZED: Labels = {
  [DEFAULT_INSTANCETYPE_LABEL]: "u1.medium",
  [DEFAULT_INSTANCETYPE_KIND_LABEL]: "VirtualMachineClusterInstancetype",
  [DEFAULT_PREFERENCE_LABEL]: "fedora",
};

type Matcher = NonNullable<VirtualMachine["spec"]["instancetype"]>;
type Volume = NonNullable<NonNullable<VirtualMachine["spec"]["template"]["spec"]>["volumes"]>[number];

function vm(options: {
  instancetype?: Matcher;
  preference?: Matcher;
  volume?: Volume;
  dataVolumeTemplates?: VirtualMachine["spec"]["dataVolumeTemplates"];
}): VirtualMachine {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachine",
    metadata: { name: "vm", namespace: "ns" },
    spec: {
      runStrategy: "Always",
      ...(options.instancetype ? { instancetype: options.instancetype } : {}),
      ...(options.preference ? { preference: options.preference } : {}),
      ...(options.dataVolumeTemplates ? { dataVolumeTemplates: options.dataVolumeTemplates } : {}),
      template: {
        spec: {
          domain: { devices: {}, memory: { guest: "512Mi" } },
          volumes: [options.volume ?? { name: "root", persistentVolumeClaim: { claimName: "fedora-root" } }],
        },
      },
    },
  } as VirtualMachine;
}

async function rejection(pending: Promise<unknown>): Promise<InferenceError> {
  try {
    await pending;
  } catch (error) {
    assert.ok(error instanceof InferenceError, String(error));
    return error;
  }
  assert.fail("inference did not fail");
}

describe("inferFromVolume", () => {
  test("a claim's labels become the matchers' name and kind; nothing else of the matcher stays", async () => {
    const source = new FakeSource();
    source.claims.set("ns/fedora-root", SIZED);
    const given = vm({
      instancetype: { inferFromVolume: "root" },
      preference: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Reject" },
    });
    const inferred = await inferMatchers(given, source);
    assert.deepEqual(inferred.spec.instancetype, {
      name: "u1.medium",
      kind: "VirtualMachineClusterInstancetype",
    });
    assert.deepEqual(inferred.spec.preference, { name: "fedora" });
    assert.deepEqual(
      inferred.spec.template.spec?.domain.memory,
      { guest: "512Mi" },
      "Reject keeps the memory",
    );
    assert.deepEqual(given.spec.instancetype, { inferFromVolume: "root" }, "the VM given is not changed");
  });

  test("without the label: KubeVirt's message under Reject; the matcher dropped under Ignore, memory kept", async () => {
    const source = new FakeSource();
    source.claims.set("ns/fedora-root", { [DEFAULT_PREFERENCE_KIND_LABEL]: "VirtualMachinePreference" });
    const refused = await rejection(inferMatchers(vm({ instancetype: { inferFromVolume: "root" } }), source));
    assert.equal(
      refused.message,
      "unable to find required instancetype.kubevirt.io/default-instancetype label on the volume",
    );
    assert.equal(refused.ignorable, true);
    const ignored = await inferMatchers(
      vm({
        instancetype: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" },
        preference: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" },
      }),
      source,
    );
    assert.equal(ignored.spec.instancetype, undefined);
    assert.equal(ignored.spec.preference, undefined);
    assert.deepEqual(ignored.spec.template.spec?.domain.memory, { guest: "512Mi" });
  });

  test("an inferred instancetype under Ignore drops the template's fallback memory", async () => {
    const source = new FakeSource();
    source.claims.set("ns/fedora-root", SIZED);
    const inferred = await inferMatchers(
      vm({ instancetype: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" } }),
      source,
    );
    assert.equal(inferred.spec.instancetype?.name, "u1.medium");
    assert.equal(inferred.spec.template.spec?.domain.memory, undefined);
  });

  test("no such volume, or no such claim, refuses the VM even under Ignore", async () => {
    const source = new FakeSource();
    const missingVolume = await rejection(
      inferMatchers(
        vm({ instancetype: { inferFromVolume: "data", inferFromVolumeFailurePolicy: "Ignore" } }),
        source,
      ),
    );
    assert.equal(missingVolume.message, "unable to find volume data to infer defaults");
    assert.equal(missingVolume.ignorable, false);
    const missingClaim = await rejection(
      inferMatchers(
        vm({ preference: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" } }),
        source,
      ),
    );
    assert.equal(missingClaim.message, 'persistentvolumeclaims "fedora-root" not found');
    assert.equal(missingClaim.ignorable, false);
  });

  test("a volume that is neither a claim nor a DataVolume cannot be inferred from (ignorable)", async () => {
    const containerDisk = { name: "root", containerDisk: { image: "quay.io/containerdisks/fedora" } };
    const refused = await rejection(
      inferMatchers(
        vm({ instancetype: { inferFromVolume: "root" }, volume: containerDisk }),
        new FakeSource(),
      ),
    );
    assert.equal(refused.message, "unable to infer defaults from volume root as type is not supported");
    const ignored = await inferMatchers(
      vm({
        instancetype: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" },
        volume: containerDisk,
      }),
      new FakeSource(),
    );
    assert.equal(ignored.spec.instancetype, undefined);
  });

  test("a DataVolume: its own labels first, then the claim it clones (in that claim's namespace)", async () => {
    const source = new FakeSource();
    const volume = { name: "root", dataVolume: { name: "root-dv" } };
    source.dataVolumes.set("ns/root-dv", {
      labels: { [DEFAULT_INSTANCETYPE_LABEL]: "u1.small" },
      spec: { source: { pvc: { name: "golden", namespace: "images" } } },
    });
    source.claims.set("images/golden", SIZED);
    const fromLabels = await inferMatchers(vm({ instancetype: { inferFromVolume: "root" }, volume }), source);
    assert.deepEqual(fromLabels.spec.instancetype, { name: "u1.small" });
    const fromClone = await inferMatchers(vm({ preference: { inferFromVolume: "root" }, volume }), source);
    assert.deepEqual(fromClone.spec.preference, { name: "fedora" });
    assert.deepEqual(source.reads.slice(-2), ["dv ns/root-dv", "pvc images/golden"]);
  });

  test("a DataVolume imported over http with no labels cannot say; one that is gone leaves its claim", async () => {
    const source = new FakeSource();
    const volume = { name: "root", dataVolume: { name: "root-dv" } };
    source.dataVolumes.set("ns/root-dv", {
      spec: { source: { http: { url: "http://images/fedora.qcow2" } } },
    });
    const refused = await rejection(
      inferMatchers(vm({ instancetype: { inferFromVolume: "root" }, volume }), source),
    );
    assert.equal(
      refused.message,
      "unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported",
    );
    source.dataVolumes.clear();
    source.claims.set("ns/root-dv", SIZED);
    const collected = await inferMatchers(vm({ instancetype: { inferFromVolume: "root" }, volume }), source);
    assert.equal(collected.spec.instancetype?.name, "u1.medium");
  });

  test("a dataVolumeTemplate: its clone source's claim, never its own labels nor a DataVolume object", async () => {
    const source = new FakeSource();
    source.claims.set("ns/golden", SIZED);
    const inferred = await inferMatchers(
      vm({
        instancetype: { inferFromVolume: "root" },
        volume: { name: "root", dataVolume: { name: "root-dv" } },
        dataVolumeTemplates: [
          {
            metadata: { name: "root-dv", labels: { [DEFAULT_INSTANCETYPE_LABEL]: "u1.small" } },
            spec: { source: { pvc: { name: "golden", namespace: "" } }, storage: {} },
          },
        ],
      }),
      source,
    );
    assert.equal(inferred.spec.instancetype?.name, "u1.medium");
    assert.deepEqual(source.reads, ["pvc ns/golden"], "an empty clone namespace is the VM's");
  });

  test("a DataSource reference is refused, saying it is not supported; another kind is ignorable", async () => {
    const volume = { name: "root", dataVolume: { name: "root-dv" } };
    const template = (kind: string) => [
      { metadata: { name: "root-dv" }, spec: { sourceRef: { kind, name: "fedora" }, storage: {} } },
    ];
    const dataSource = await rejection(
      inferMatchers(
        vm({
          instancetype: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" },
          volume,
          dataVolumeTemplates: template("DataSource"),
        }),
        new FakeSource(),
      ),
    );
    assert.equal(dataSource.ignorable, false);
    assert.match(dataSource.message, /DataSources are not supported yet/);
    const other = await rejection(
      inferMatchers(
        vm({ instancetype: { inferFromVolume: "root" }, volume, dataVolumeTemplates: template("Other") }),
        new FakeSource(),
      ),
    );
    assert.equal(
      other.message,
      "unable to infer defaults from DataVolumeSourceRef as Kind Other is not supported",
    );
    assert.equal(other.ignorable, true);
  });

  test("a VM that names its matchers needs no inference and is read nowhere", async () => {
    const source = new FakeSource();
    const named = vm({ instancetype: { name: "u1.small" } });
    assert.equal(needsInference(named), false);
    assert.deepEqual(await inferMatchers(named, source), named);
    assert.deepEqual(source.reads, []);
  });
});
