// A VMI that never went through admission (stored before a rule existed, or while the webhook was
// down) reaches the converter with hostile values: each is refused with InvalidSpec naming the field,
// and the free text that is allowed (kernel arguments, the SMBIOS serial) stays text in the XML.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { VirtualMachineInstanceSpec } from "../../api/index.js";
import { domainToXml, parseXmlDocument, type XmlElement } from "../../libvirt/domain-xml/index.js";
import { VmiConversionError } from "./conversion-error.js";
import { convertVmi } from "./convert-vmi.js";
import { convert, OPTIONS, refuses, spec, withDisks } from "./testing/test-conversions.js";
import { preparedWithoutFiles, vmiWithSpec } from "./testing/test-vmis.js";

const KERNEL = { image: "localhost/guest", kernelPath: "/boot/vmlinuz", initrdPath: "/boot/initrd" };

// `as never`: values the schema's enums exclude, as a stored object may still hold them.
describe("the converter refuses what admission would have", () => {
  const cases: Array<[string, VirtualMachineInstanceSpec, RegExp]> = [
    ["a volume name that is a path", withDisks([{ name: "../../etc/cron.d/x" }]), /spec\.volumes\[0\]\.name/],
    ["a disk name that breaks an alias", withDisks([{ name: "a.b" }]), /disks\[0\]\.name/],
    ["a disk serial with markup", withDisks([{ name: "d", serial: "</serial><x/>" }]), /disks\[0\]\.serial/],
    ["a hostname with a newline", spec({}, { hostname: "vm\nuser-data: x" }), /spec\.hostname/],
    [
      "an input name outside libvirt's alias charset",
      spec({ devices: { inputs: [{ name: "t'x", type: "tablet", bus: "usb" }] } }),
      /inputs\[0\]\.name/,
    ],
    ["a firmware UUID that is not one", spec({ firmware: { uuid: "x,,serial=y" } }), /firmware\.uuid/],
    [
      "kernel arguments with a control character",
      spec({ firmware: { kernelBoot: { kernelArgs: "a\u001bb", container: KERNEL } } }),
      /kernelArgs must not contain control characters/,
    ],
    [
      "a kernel path with relative components",
      spec({ firmware: { kernelBoot: { container: { ...KERNEL, kernelPath: "/../etc/shadow" } } } }),
      /kernelPath must be an absolute path/,
    ],
    ["a CPU model with options", spec({ cpu: { model: "max,+vmx" } }), /cpu\.model/],
    ["a machine type with options", spec({ machine: { type: "q35,accel=kvm" } }), /machine\.type/],
    ["a timezone that is a path", spec({ clock: { timezone: "../../etc/shadow" } }), /clock\.timezone/],
    [
      "an error policy outside libvirt's",
      withDisks([{ name: "d", errorPolicy: "retry,x" as never }]),
      /disk d: unknown errorPolicy/,
    ],
    [
      "a cdrom tray state outside libvirt's",
      withDisks([{ name: "c", cdrom: { tray: "half" as never } }]),
      /disk c: unknown tray half/,
    ],
    [
      "a timer tick policy outside libvirt's",
      spec({ clock: { timer: { rtc: { tickPolicy: "eventually" as never } } } }),
      /timer rtc: tickPolicy eventually/,
    ],
    ["a fractional boot order", withDisks([{ name: "d", bootOrder: 1.5 }]), /disk d: bootOrder 1\.5/],
  ];
  for (const [what, vmiSpec, message] of cases) {
    test(what, () => refuses(vmiSpec, "InvalidSpec", message));
  }

  test("a name whose domain name would not fit libvirt's file name", () => {
    const vmi = vmiWithSpec(spec(), { name: "v".repeat(200), namespace: "n".repeat(50) });
    assert.throws(
      () => convertVmi(vmi, preparedWithoutFiles(vmi), OPTIONS),
      (error: unknown) =>
        error instanceof VmiConversionError &&
        error.reason === "InvalidSpec" &&
        /metadata\.name/.test(error.message),
    );
  });

  test("what XML cannot carry fails the conversion, not each define (the last line of defence)", () => {
    // A uid is the API server's and not checked by field; a control character in it still never reaches libvirt.
    const vmi = vmiWithSpec(spec(), { uid: "uid\u0001" });
    assert.throws(
      () => convertVmi(vmi, preparedWithoutFiles(vmi), OPTIONS),
      (error: unknown) =>
        error instanceof VmiConversionError &&
        error.reason === "InvalidSpec" &&
        /domain\/metadata\/kubevirt\/uid: contains U\+0001/.test(error.message),
    );
  });
});

function only(element: XmlElement, path: string[]): XmlElement[] {
  let found = [element];
  for (const name of path) {
    found = found.flatMap((parent) =>
      (parent.children ?? []).filter(
        (node): node is XmlElement => typeof node === "object" && node.name === name,
      ),
    );
  }
  return found;
}

describe("free text stays text", () => {
  test("kernel arguments and an SMBIOS serial with markup: one <cmdline>, one <kernel>, two QEMU arguments", () => {
    const kernelArgs = `console=ttyS0 </cmdline><kernel>/etc/shadow</kernel><cmdline>`;
    const serial = `x"/><qemu:arg value="-drive"/><qemu:arg value="file=/etc/shadow,if=virtio`;
    const domain = convert(spec({ firmware: { serial, kernelBoot: { kernelArgs, container: KERNEL } } }));
    const root = parseXmlDocument(domainToXml(domain));
    assert.deepEqual(
      only(root, ["os", "kernel"]).map((kernel) => kernel.children),
      [["/vms/testvm/kernel"]],
    );
    assert.deepEqual(
      only(root, ["os", "cmdline"]).map((cmdline) => cmdline.children),
      [[kernelArgs]],
    );
    const args = only(root, ["qemu:commandline", "qemu:arg"]).map((arg) => arg.attributes?.value);
    assert.equal(args.length, 2);
    assert.equal(args[0], "-smbios");
    // Commas doubled: QEMU reads the serial as one value, not as further -smbios fields.
    assert.match(
      args[1] ?? "",
      /,serial=x"\/><qemu:arg value="-drive"\/><qemu:arg value="file=\/etc\/shadow,,if=virtio$/,
    );
  });
});
