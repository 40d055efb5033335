// spec.accessCredentials at admission: SSH keys through cloud-init are accepted when the VMI has the
// data source's volume; KubeVirt's own rules give its messages; what needs the guest agent is refused.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withEdits } from "../testing/json-edit.js";
import { loadTestManifest } from "../testing/testdata.js";
import type { Cause } from "./cause.js";
import { validateVirtualMachine, validateVirtualMachineInstance } from "./object-validation.js";

const secret = { secret: { secretName: "my-keys" } };

function causesOf(credentials: unknown[], ...edits: [string, unknown][]): Cause[] {
  return validateVirtualMachineInstance(
    withEdits(loadTestManifest("vmi-emptydisk.yaml"), ["spec.accessCredentials", credentials], ...edits),
  );
}

function only(causes: Cause[]): Cause {
  assert.equal(causes.length, 1, JSON.stringify(causes));
  return causes[0] as Cause;
}

describe("spec.accessCredentials at admission", () => {
  test("an SSH key through noCloud with a cloudInitNoCloud volume is accepted", () => {
    assert.deepEqual(
      causesOf([{ sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } } }]),
      [],
    );
  });

  test("and through configDrive with a cloudInitConfigDrive volume", () => {
    const causes = causesOf(
      [{ sshPublicKey: { source: secret, propagationMethod: { configDrive: {} } } }],
      ["spec.volumes[2]", { name: "cloudinitdisk", cloudInitConfigDrive: { userData: "#cloud-config\n" } }],
    );
    assert.deepEqual(causes, []);
  });

  test("noCloud without a cloudInitNoCloud volume: KubeVirt's message at the propagation method", () => {
    const cause = only(
      causesOf(
        [{ sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } } }],
        ["spec.volumes[2]", { name: "cloudinitdisk", cloudInitConfigDrive: { userData: "#cloud-config\n" } }],
      ),
    );
    assert.deepEqual(cause, {
      reason: "FieldValueInvalid",
      field: "spec.accessCredentials[0].sshPublicKey.propagationMethod",
      message:
        "spec.accessCredentials[0] requires a noCloud volume to exist when the noCloud propagationMethod is in use.",
    });
  });

  test("configDrive without a cloudInitConfigDrive volume likewise", () => {
    const cause = only(
      causesOf([{ sshPublicKey: { source: secret, propagationMethod: { configDrive: {} } } }]),
    );
    assert.equal(cause.field, "spec.accessCredentials[0].sshPublicKey.propagationMethod");
    assert.equal(
      cause.message,
      "spec.accessCredentials[0] requires a configDrive volume to exist when the configDrive propagationMethod is in use.",
    );
  });

  test("qemuGuestAgent is refused with the reason (no guest agent yet), and KubeVirt's rule on users", () => {
    const agent = only(
      causesOf([
        { sshPublicKey: { source: secret, propagationMethod: { qemuGuestAgent: { users: ["root"] } } } },
      ]),
    );
    assert.equal(agent.field, "spec.accessCredentials[0].sshPublicKey.propagationMethod.qemuGuestAgent");
    assert.match(agent.message, /is not supported yet: .*QEMU guest agent.*; use noCloud or configDrive$/);
    const noUsers = causesOf([
      { sshPublicKey: { source: secret, propagationMethod: { qemuGuestAgent: { users: [] } } } },
    ]);
    assert.deepEqual(
      noUsers.map((cause) => cause.field),
      [
        "spec.accessCredentials[0].sshPublicKey.propagationMethod.qemuGuestAgent.users",
        "spec.accessCredentials[0].sshPublicKey.propagationMethod.qemuGuestAgent",
      ],
    );
    assert.equal(
      noUsers[0]?.message,
      "spec.accessCredentials[0] requires at least one user to be present in the users list",
    );
  });

  test("userPassword is refused with the reason", () => {
    const cause = only(
      causesOf([{ userPassword: { source: secret, propagationMethod: { qemuGuestAgent: {} } } }]),
    );
    assert.equal(cause.field, "spec.accessCredentials[0].userPassword");
    assert.match(cause.message, /^spec\.accessCredentials\[0\]\.userPassword is not supported yet: /);
  });

  test("KubeVirt's counting rules: one type, one source, one propagation method", () => {
    const both = causesOf([
      {
        sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } },
        userPassword: { source: secret, propagationMethod: { qemuGuestAgent: {} } },
      },
    ]);
    assert.ok(
      both.some(
        (cause) =>
          cause.field === "spec.accessCredentials[0]" &&
          cause.message === "spec.accessCredentials[0] must have exactly one access credential type set",
      ),
      JSON.stringify(both),
    );
    const none = only(causesOf([{}]));
    assert.equal(none.field, "spec.accessCredentials[0]");
    const twoMethods = only(
      causesOf(
        [{ sshPublicKey: { source: secret, propagationMethod: { noCloud: {}, configDrive: {} } } }],
        ["spec.volumes[3]", { name: "cd", cloudInitConfigDrive: { userData: "#cloud-config\n" } }],
        ["spec.domain.devices.disks[3]", { name: "cd", disk: { bus: "virtio" } }],
      ),
    );
    assert.deepEqual(twoMethods, {
      reason: "FieldValueInvalid",
      field: "spec.accessCredentials[0].sshPublicKey.propagationMethod",
      message: "spec.accessCredentials[0] must have exactly one propagationMethod set",
    });
    const noSource = only(causesOf([{ sshPublicKey: { source: {}, propagationMethod: { noCloud: {} } } }]));
    assert.deepEqual(noSource, {
      reason: "FieldValueInvalid",
      field: "spec.accessCredentials[0].sshPublicKey.source",
      message: "spec.accessCredentials[0] must have exactly one source set",
    });
  });

  test("a VM's template is checked the same way, at its own path", () => {
    const vm = withEdits(loadTestManifest("vm-fedora-datavolume.yaml"), [
      "spec.template.spec.accessCredentials[0].sshPublicKey.propagationMethod",
      { qemuGuestAgent: { users: ["fedora"] } },
    ]);
    const fields = validateVirtualMachine(vm).map((cause) => cause.field);
    assert.ok(
      fields.includes(
        "spec.template.spec.accessCredentials[0].sshPublicKey.propagationMethod.qemuGuestAgent",
      ),
      JSON.stringify(fields),
    );
  });
});
