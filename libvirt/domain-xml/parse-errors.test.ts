import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DomainXmlError, domainFromXml } from "./index.js";

const minimal = (body: string, rootAttributes = "type='qemu'") =>
  `<domain ${rootAttributes}><name>x</name><memory>1024</memory><os><type>hvm</type></os>${body}</domain>`;

describe("domainFromXml errors", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["malformed XML", "<domain type='qemu'><name>x</domain>", /malformed XML at line 1/],
    ["another root element", "<network><name>x</name></network>", /root element is <network>, not <domain>/],
    [
      "a missing name",
      "<domain type='qemu'><memory>1</memory><os><type>hvm</type></os></domain>",
      /^domain: <name> is missing/,
    ],
    ["a missing domain type", minimal("", ""), /^domain: attribute type is missing/],
    [
      "an unknown domain type",
      minimal("", "type='xen'"),
      /domain\/@type: "xen" is not one of qemu, kvm, test/,
    ],
    ["a non-integer vcpu count", minimal("<vcpu>two</vcpu>"), /domain\/vcpu: "two" is not an integer/],
    [
      "an unknown disk bus",
      minimal("<devices><disk type='file'><target dev='vda' bus='floppy-ish'/></disk></devices>"),
      /domain\/devices\/disk\[0\]\/target\/@bus: "floppy-ish" is not one of/,
    ],
    [
      "a disk without a target",
      minimal("<devices><disk type='file'><source file='/a'/></disk></devices>"),
      /domain\/devices\/disk\[0\]: <target> is missing/,
    ],
    [
      "a bad yes/no",
      minimal("<devices><memballoon model='virtio' autodeflate='maybe'/></devices>"),
      /memballoon\/@autodeflate: "maybe" is not yes\/no or on\/off/,
    ],
  ];
  for (const [name, xml, message] of cases) {
    test(`reports ${name}`, () => {
      assert.throws(
        () => domainFromXml(xml),
        (error: unknown) => error instanceof DomainXmlError && message.test(error.message),
      );
    });
  }
});

describe("domainFromXml leniency", () => {
  test("skips device kinds the model does not cover, and unknown elements", () => {
    const domain = domainFromXml(
      minimal(`<devices>
        <disk type='network' device='disk'><source protocol='rbd' name='pool/img'/><target dev='vdb' bus='virtio'/></disk>
        <disk type='file' device='disk'><source file='/a.img'/><target dev='vda' bus='virtio'/><iotune/></disk>
        <graphics type='spice' autoport='yes'/>
        <interface type='vhostuser'><source type='unix' path='/x' mode='client'/></interface>
        <serial type='tcp'><source mode='bind' host='127.0.0.1' service='4555'/></serial>
        <hostdev mode='subsystem' type='pci'/>
      </devices><seclabel type='none'/><unknown-element/>`),
    );
    assert.deepEqual(domain.devices, {
      disks: [{ type: "file", device: "disk", source: "/a.img", target: { dev: "vda", bus: "virtio" } }],
    });
  });

  test("applies libvirt's defaults for memory unit and vcpu", () => {
    const domain = domainFromXml(minimal(""));
    assert.deepEqual(domain.memory, { value: 1024, unit: "KiB" });
    assert.deepEqual(domain.vcpu, { count: 1 });
  });
});
