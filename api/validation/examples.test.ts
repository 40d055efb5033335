import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pruneUnknown } from "../../dev-cluster/apiserver/crd/pruning.js";
import { validateValue } from "../../dev-cluster/apiserver/crd/schema-validation.js";
import type { JsonObject } from "../../dev-cluster/apiserver/json.js";
import { rootSchema } from "../crd/crd-builder.js";
import { KUBEVIRT_KINDS } from "../crd/kubevirt-kinds.js";
import { defaultKubeVirt, defaultVirtualMachineInstanceReplicaSet } from "../defaults/other-defaults.js";
import { defaultVirtualMachine } from "../defaults/vm-defaults.js";
import { defaultVirtualMachineInstance } from "../defaults/vmi-defaults.js";
import { KubeVirtKind } from "../kubevirt/kubevirt.js";
import { VirtualMachineInstanceReplicaSetKind } from "../replicaset/virtual-machine-instance-replica-set.js";
import type { SchemaValidator } from "../schema/validator.js";
import { withEdits } from "../testing/json-edit.js";
import { loadTestManifest } from "../testing/testdata.js";
import { VirtualMachineKind } from "../vm/virtual-machine.js";
import { VirtualMachineInstanceKind } from "../vmi/virtual-machine-instance.js";
import type { Cause } from "./cause.js";
import { validateInstancetype, validatePreference } from "./instancetype-object-validation.js";
import {
  validateKubeVirt,
  validateVirtualMachine,
  validateVirtualMachineInstance,
  validateVirtualMachineInstanceMigration,
  validateVirtualMachineInstanceReplicaSet,
} from "./object-validation.js";

const EXAMPLES: Record<string, (value: unknown) => Cause[]> = {
  "vm-cirros.yaml": validateVirtualMachine,
  "vm-fedora-datavolume.yaml": validateVirtualMachine,
  "vmi-emptydisk.yaml": validateVirtualMachineInstance,
  "vmirs-cirros.yaml": validateVirtualMachineInstanceReplicaSet,
  "vmim.yaml": validateVirtualMachineInstanceMigration,
  "kubevirt-cr.yaml": validateKubeVirt,
  "instancetype-csmall.yaml": (value) => validateInstancetype(value),
  "preference-virtio.yaml": (value) => validatePreference(value),
  "preference-windows.yaml": (value) => validatePreference(value),
};

function crdSchemaOf(kind: unknown): JsonObject {
  const definition = KUBEVIRT_KINDS.find((candidate) => candidate.kind === kind);
  assert.ok(definition, `no kind ${String(kind)}`);
  return rootSchema(definition) as JsonObject;
}

describe("KubeVirt-shaped example manifests", () => {
  for (const [fileName, validate] of Object.entries(EXAMPLES)) {
    test(`${fileName} is valid as written`, () => {
      assert.deepEqual(validate(loadTestManifest(fileName)), []);
    });

    test(`${fileName} passes the emitted CRD schema and loses no field to pruning`, () => {
      const manifest = loadTestManifest(fileName) as JsonObject;
      const schema = crdSchemaOf(manifest.kind);
      assert.deepEqual(validateValue(manifest, schema, ""), []);
      const copy = structuredClone(manifest);
      assert.deepEqual(pruneUnknown(copy, schema, true), []);
      assert.deepEqual(copy, manifest);
    });
  }

  test("stay valid, and CRD-valid, once defaulted", () => {
    const vm = defaultVirtualMachine(typed(VirtualMachineKind.validator, loadTestManifest("vm-cirros.yaml")));
    const vmi = defaultVirtualMachineInstance(
      typed(VirtualMachineInstanceKind.validator, loadTestManifest("vmi-emptydisk.yaml")),
    );
    const rs = typed(VirtualMachineInstanceReplicaSetKind.validator, loadTestManifest("vmirs-cirros.yaml"));
    const kv = typed(KubeVirtKind.validator, loadTestManifest("kubevirt-cr.yaml"));
    assert.deepEqual(validateVirtualMachine(vm), []);
    assert.deepEqual(validateVirtualMachineInstance(vmi), []);
    assert.deepEqual(
      validateVirtualMachineInstanceReplicaSet(defaultVirtualMachineInstanceReplicaSet(rs)),
      [],
    );
    assert.deepEqual(validateKubeVirt(defaultKubeVirt(kv)), []);
    for (const object of [vm, vmi]) {
      const manifest = JSON.parse(JSON.stringify(object)) as JsonObject;
      assert.deepEqual(validateValue(manifest, crdSchemaOf(manifest.kind), ""), []);
    }
  });
});

function typed<T>(validator: SchemaValidator<T>, value: unknown): T {
  if (!validator.check(value)) assert.fail(JSON.stringify(validator.validate(value)));
  return value;
}

/** The example with each `[path, value]` applied (undefined deletes). */
function edited(fileName: string, ...edits: [string, unknown][]): unknown {
  return withEdits(loadTestManifest(fileName), ...edits);
}

function fieldsOf(causes: Cause[]): string[] {
  return causes.map((cause) => cause.field);
}

function causeAt(causes: Cause[], field: string): Cause {
  const cause = causes.find((candidate) => candidate.field === field);
  assert.ok(cause, `no cause at ${field}; got ${JSON.stringify(causes)}`);
  return cause;
}

describe("invalid manifests give causes with field paths", () => {
  test("running and runStrategy together", () => {
    const causes = validateVirtualMachine(edited("vm-cirros.yaml", ["spec.runStrategy", "Always"]));
    assert.deepEqual(fieldsOf(causes), ["spec.running"]);
    assert.match(causes[0]?.message ?? "", /mutually exclusive/);
  });

  test("neither running nor runStrategy", () => {
    const causes = validateVirtualMachine(edited("vm-cirros.yaml", ["spec.running", undefined]));
    assert.equal(causeAt(causes, "spec.runStrategy").reason, "FieldValueRequired");
  });

  test("an unknown run strategy is not supported", () => {
    const causes = validateVirtualMachine(
      edited("vm-cirros.yaml", ["spec.running", undefined], ["spec.runStrategy", "Sometimes"]),
    );
    const cause = causeAt(causes, "spec.runStrategy");
    assert.equal(cause.reason, "FieldValueNotSupported");
    assert.match(cause.message, /"RerunOnFailure"/);
  });

  test("a disk naming no volume", () => {
    const causes = validateVirtualMachine(
      edited("vm-cirros.yaml", ["spec.template.spec.domain.devices.disks[0].name", "rootdisk"]),
    );
    assert.equal(
      causeAt(causes, "spec.template.spec.domain.devices.disks[0].name").message,
      "spec.template.spec.domain.devices.disks[0].name 'rootdisk' not found.",
    );
  });

  test("a VMI volume no disk uses", () => {
    const causes = validateVirtualMachineInstance(
      edited("vmi-emptydisk.yaml", ["spec.domain.devices.disks[1]", undefined]),
    );
    assert.deepEqual(fieldsOf(causes), ["spec.volumes[1].name"]);
  });

  test("duplicate volume names and a volume with two sources", () => {
    const causes = validateVirtualMachineInstance(
      edited(
        "vmi-emptydisk.yaml",
        ["spec.volumes[1].name", "containerdisk"],
        ["spec.volumes[2].emptyDisk", { capacity: "1Gi" }],
      ),
    );
    assert.equal(causeAt(causes, "spec.volumes[1].name").reason, "FieldValueDuplicate");
    assert.match(causeAt(causes, "spec.volumes[2]").message, /must have exactly one source type set/);
  });

  test("a size that is not a quantity is rejected by the schema", () => {
    const causes = validateVirtualMachineInstance(
      edited("vmi-emptydisk.yaml", ["spec.volumes[1].emptyDisk.capacity", "2 gigs"]),
    );
    const cause = causeAt(causes, "spec.volumes[1].emptyDisk.capacity");
    assert.equal(cause.reason, "FieldValueInvalid");
    assert.match(cause.message, /should match/);
  });

  test("a memory request below 1M and a CPU request above its limit", () => {
    const causes = validateVirtualMachineInstance(
      edited(
        "vmi-emptydisk.yaml",
        ["spec.domain.resources.requests.memory", "512k"],
        ["spec.domain.resources.requests.cpu", "2"],
        ["spec.domain.resources.limits", { cpu: "1" }],
      ),
    );
    assert.match(causeAt(causes, "spec.domain.resources.requests.memory").message, /1M/);
    assert.match(causeAt(causes, "spec.domain.resources.requests.cpu").message, /is greater than/);
  });

  test("a VMI without any memory setting", () => {
    const causes = validateVirtualMachineInstance(
      edited("vmi-emptydisk.yaml", ["spec.domain.resources.requests.memory", undefined]),
    );
    assert.match(causeAt(causes, "spec.domain.resources.requests.memory").message, /no memory requested/);
  });

  test("cloud-init user data that is not base64", () => {
    const causes = validateVirtualMachineInstance(
      edited("vmi-emptydisk.yaml", ["spec.volumes[2].cloudInitNoCloud.userDataBase64", "not base64!"]),
    );
    assert.ok(fieldsOf(causes).includes("spec.volumes[2].cloudInitNoCloud.userDataBase64"));
  });

  test("an interface without its network, and masquerade off the pod network", () => {
    const causes = validateVirtualMachine(
      edited(
        "vm-fedora-datavolume.yaml",
        ["spec.template.spec.networks", [{ name: "default", multus: { networkName: "ovs" } }]],
        ["spec.template.spec.domain.devices.interfaces[1]", { name: "extra", bridge: {} }],
      ),
    );
    assert.match(
      causeAt(causes, "spec.template.spec.domain.devices.interfaces[0].name").message,
      /pod network/,
    );
    assert.match(
      causeAt(causes, "spec.template.spec.domain.devices.interfaces[1].name").message,
      /'extra' not found/,
    );
  });

  test("a data volume template the template does not use", () => {
    const causes = validateVirtualMachine(
      edited("vm-fedora-datavolume.yaml", ["spec.dataVolumeTemplates[0].metadata.name", "orphan"]),
    );
    assert.deepEqual(fieldsOf(causes), ["spec.dataVolumeTemplates[0]"]);
  });

  test("a missing template and a mistyped field", () => {
    const missing = validateVirtualMachine(edited("vm-cirros.yaml", ["spec.template", undefined]));
    assert.deepEqual(missing, [
      { reason: "FieldValueRequired", message: "Required value", field: "spec.template" },
    ]);
    const mistyped = validateVirtualMachineInstanceReplicaSet(
      edited("vmirs-cirros.yaml", ["spec.replicas", "two"]),
    );
    assert.equal(causeAt(mistyped, "spec.replicas").reason, "FieldValueTypeInvalid");
  });

  test("a replica set whose selector does not match its template", () => {
    const causes = validateVirtualMachineInstanceReplicaSet(
      edited("vmirs-cirros.yaml", ["spec.template.metadata.labels", { app: "other" }]),
    );
    assert.deepEqual(fieldsOf(causes), ["spec.selector"]);
  });

  test("a migration without its VMI, a KubeVirt CR with an unknown uninstall strategy", () => {
    assert.deepEqual(
      fieldsOf(validateVirtualMachineInstanceMigration(edited("vmim.yaml", ["spec.vmiName", undefined]))),
      ["spec.vmiName"],
    );
    const causes = validateKubeVirt(edited("kubevirt-cr.yaml", ["spec.uninstallStrategy", "Never"]));
    assert.equal(causeAt(causes, "spec.uninstallStrategy").reason, "FieldValueNotSupported");
  });

  test("disks with two targets, an unknown bus, and clashing boot orders", () => {
    const causes = validateVirtualMachineInstance(
      edited(
        "vmi-emptydisk.yaml",
        ["spec.domain.devices.disks[0].cdrom", { bus: "sata" }],
        ["spec.domain.devices.disks[1].disk.bus", "ide2"],
        ["spec.domain.devices.disks[1].bootOrder", 1],
        ["spec.domain.devices.disks[2].bootOrder", 1],
      ),
    );
    assert.match(causeAt(causes, "spec.domain.devices.disks[0]").message, /single target/);
    assert.match(causeAt(causes, "spec.domain.devices.disks[1].disk.bus").message, /unrecognized bus ide2/);
    assert.match(causeAt(causes, "spec.domain.devices.disks[2].bootOrder").message, /already set/);
  });
});
