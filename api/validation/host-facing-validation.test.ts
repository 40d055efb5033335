// Every VMI value that reaches a node as a file name, a device alias, a QEMU option, XML text or
// cloud-init meta-data is refused at admission when it could escape its place, with the field; and
// validateHostFacingValues (what virt-handler checks again) refuses the same values.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withEdits } from "../testing/json-edit.js";
import { loadTestManifest } from "../testing/testdata.js";
import type { VirtualMachineInstance } from "../vmi/virtual-machine-instance.js";
import type { Cause } from "./cause.js";
import { MAX_DOMAIN_NAME_BYTES } from "./domain-name-validation.js";
import { validateImagePath } from "./firmware-validation.js";
import { validateHostFacingValues } from "./host-facing-validation.js";
import { validateVirtualMachine, validateVirtualMachineInstance } from "./object-validation.js";

const KERNEL_BOOT = {
  kernelArgs: "console=ttyS0",
  container: { image: "localhost/kernel:1", kernelPath: "/boot/vmlinuz", initrdPath: "/boot/initrd" },
};

function vmi(...edits: [string, unknown][]): unknown {
  return withEdits(loadTestManifest("vmi-emptydisk.yaml"), ...edits);
}

function fieldsOf(causes: Cause[]): string[] {
  return causes.map((cause) => cause.field);
}

/** [what, edits, the field refused, a word of the message]: each is tried at admission and at the handler. */
const HOSTILE: Array<[string, [string, unknown][], string, RegExp]> = [
  [
    "a volume and disk name that is a path",
    [
      ["spec.volumes[1].name", "../../root/.ssh/authorized_keys"],
      ["spec.domain.devices.disks[1].name", "../../root/.ssh/authorized_keys"],
    ],
    "spec.volumes[1].name",
    /RFC 1123 label/,
  ],
  [
    "a disk name that breaks a device alias",
    [
      ["spec.volumes[1].name", "scratch.disk"],
      ["spec.domain.devices.disks[1].name", "scratch.disk"],
    ],
    "spec.domain.devices.disks[1].name",
    /RFC 1123 label/,
  ],
  [
    "an interface name with a slash",
    [
      ["spec.networks", [{ name: "a/b", pod: {} }]],
      ["spec.domain.devices.interfaces", [{ name: "a/b", masquerade: {} }]],
    ],
    "spec.domain.devices.interfaces[0].name",
    /Network interface name can only contain/,
  ],
  [
    "an input name with a quote",
    [["spec.domain.devices.inputs", [{ name: `t"/>`, type: "tablet", bus: "usb" }]]],
    "spec.domain.devices.inputs[0].name",
    /Input device name/,
  ],
  [
    "a disk serial with markup",
    [["spec.domain.devices.disks[1].serial", `</serial><source file="/etc/shadow"/>`]],
    "spec.domain.devices.disks[1].serial",
    /\[A-Za-z0-9_\.\+-\]/,
  ],
  [
    "a hostname that adds a meta-data key",
    [["spec.hostname", "guest\nuser-data: owned"]],
    "spec.hostname",
    /DNS_LABEL rules/,
  ],
  [
    "a firmware UUID that adds an SMBIOS field",
    [["spec.domain.firmware", { uuid: "5d307ca9-b3ef-428c-8861-06e72d69f223,,serial=x" }]],
    "spec.domain.firmware.uuid",
    /must be a UUID/,
  ],
  [
    "a firmware serial with a newline",
    [["spec.domain.firmware", { serial: "a\nb" }]],
    "spec.domain.firmware.serial",
    /control characters \(found U\+000A\)/,
  ],
  [
    "kernel arguments with a NUL",
    [["spec.domain.firmware", { kernelBoot: { ...KERNEL_BOOT, kernelArgs: "quiet\u0000init=/bin/sh" } }]],
    "spec.domain.firmware.kernelBoot.kernelArgs",
    /control characters/,
  ],
  [
    "a kernel path that climbs out of the image",
    [
      [
        "spec.domain.firmware",
        { kernelBoot: { container: { ...KERNEL_BOOT.container, kernelPath: "/boot/../../etc/shadow" } } },
      ],
    ],
    "spec.domain.firmware.kernelBoot.container.kernelPath",
    /absolute path to a file without relative components/,
  ],
  [
    "a relative initrd path",
    [
      [
        "spec.domain.firmware",
        { kernelBoot: { container: { ...KERNEL_BOOT.container, initrdPath: "boot/initrd" } } },
      ],
    ],
    "spec.domain.firmware.kernelBoot.container.initrdPath",
    /absolute path/,
  ],
  [
    "a CPU model that adds -cpu options",
    [["spec.domain.cpu", { model: "qemu64,+vmx" }]],
    "spec.domain.cpu.model",
    /only letters, digits/,
  ],
  [
    "a CPU feature that adds -cpu options",
    [["spec.domain.cpu", { features: [{ name: "vmx,kvm=off" }] }]],
    "spec.domain.cpu.features[0].name",
    /only letters, digits/,
  ],
  [
    "a machine type that adds -machine options",
    [["spec.domain.machine", { type: "q35,memory-backend=x" }]],
    "spec.domain.machine.type",
    /only letters, digits/,
  ],
  [
    "a timezone that is a host path",
    [["spec.domain.clock", { timezone: "../../../etc/shadow" }]],
    "spec.domain.clock.timezone",
    /not a known time zone/,
  ],
  [
    "a timezone that is an absolute path",
    [["spec.domain.clock", { timezone: "/etc/shadow" }]],
    "spec.domain.clock.timezone",
    /not a known time zone/,
  ],
  [
    "a name whose domain name would not fit the node",
    [
      ["metadata.name", "a".repeat(200)],
      ["metadata.namespace", "n".repeat(60)],
    ],
    "metadata.name",
    /more than the 247/,
  ],
];

describe("values that reach the node", () => {
  for (const [what, edits, field, message] of HOSTILE) {
    test(`admission refuses ${what}, at ${field}`, () => {
      const causes = validateVirtualMachineInstance(vmi(...edits));
      const cause = causes.find((candidate) => candidate.field === field);
      assert.ok(cause, `no cause at ${field}: ${JSON.stringify(causes)}`);
      assert.match(cause.message, message);
    });

    test(`the handler's check refuses ${what} too`, () => {
      const causes = validateHostFacingValues(vmi(...edits) as VirtualMachineInstance);
      assert.ok(fieldsOf(causes).includes(field), `no cause at ${field}: ${JSON.stringify(causes)}`);
    });
  }

  test("what is allowed stays allowed", () => {
    const allowed = vmi(
      ["spec.hostname", "guest-1"],
      ["spec.domain.cpu", { model: "Skylake-Client-IBRS", features: [{ name: "tsc_adjust" }] }],
      ["spec.domain.machine", { type: "pc-q35-9.0" }],
      ["spec.domain.clock", { timezone: "America/Argentina/Buenos_Aires" }],
      [
        "spec.domain.firmware",
        { uuid: "5D307CA9-B3EF-428C-8861-06E72D69F223", serial: "s,1 ü", kernelBoot: KERNEL_BOOT },
      ],
      ["spec.domain.devices.inputs", [{ name: "tablet_0", type: "tablet", bus: "usb" }]],
      ["metadata.name", "a".repeat(MAX_DOMAIN_NAME_BYTES - "default_".length)],
    );
    assert.deepEqual(validateVirtualMachineInstance(allowed), []);
    assert.deepEqual(validateHostFacingValues(allowed as VirtualMachineInstance), []);
  });

  test("a VM is refused for a name its VMI could not have", () => {
    const vm = withEdits(
      loadTestManifest("vm-cirros.yaml"),
      ["metadata.name", "v".repeat(190)],
      ["metadata.namespace", "n".repeat(63)],
    );
    const causes = validateVirtualMachine(vm);
    assert.deepEqual(fieldsOf(causes), ["metadata.name"]);
    assert.equal(causes[0]?.reason, "FieldValueTooLong");
  });

  test("a VM template's volume name is refused with the template's path", () => {
    const vm = withEdits(
      loadTestManifest("vm-cirros.yaml"),
      ["spec.template.spec.volumes[0].name", "Root_Disk"],
      ["spec.template.spec.domain.devices.disks[0].name", "Root_Disk"],
    );
    assert.ok(fieldsOf(validateVirtualMachine(vm)).includes("spec.template.spec.volumes[0].name"));
  });

  test("kernel boot rules as KubeVirt has them", () => {
    const kernelArgsAlone = validateVirtualMachineInstance(
      vmi(["spec.domain.firmware", { kernelBoot: { kernelArgs: "quiet" } }]),
    );
    assert.match(
      kernelArgsAlone.find((cause) => cause.field === "spec.domain.firmware.kernelBoot.kernelArgs")
        ?.message ?? "",
      /cannot be provided without an external kernel/,
    );
    const noPaths = validateVirtualMachineInstance(
      vmi(["spec.domain.firmware", { kernelBoot: { container: { image: "" } } }]),
    );
    assert.deepEqual(fieldsOf(noPaths).sort(), [
      "spec.domain.firmware.kernelBoot.container",
      "spec.domain.firmware.kernelBoot.container.image",
    ]);
    const both = validateVirtualMachineInstance(
      vmi(["spec.domain.firmware", { bootloader: { bios: {}, efi: {} } }]),
    );
    assert.deepEqual(fieldsOf(both), ["spec.domain.firmware.bootloader"]);
  });

  test("image paths: Go's filepath.Join comparison, as KubeVirt's ValidatePath", () => {
    const refused = (path: string) => validateImagePath("p", path).length > 0;
    for (const path of ["/", "boot/vmlinuz", "/a/../b", "/a//b", "/a/./b", "/.", "/a//", "/a\u0000b"]) {
      assert.equal(refused(path), true, path);
    }
    for (const path of ["/boot/vmlinuz", "/boot/", "/vmlinuz-6.1.0"])
      assert.equal(refused(path), false, path);
  });
});
