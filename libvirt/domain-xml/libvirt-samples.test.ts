// Reading what libvirt itself writes (virsh dumpxml), and writing it back without losing what was read.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { domainFromXml, domainToXml, findMetadata, metadataChildText } from "./index.js";
import {
  QEMU_INACTIVE_DOMAIN_XML,
  QEMU_RUNNING_DOMAIN_XML,
  TEST_DRIVER_DOMAIN_XML,
} from "./testing/libvirt-samples.js";

describe("a running qemu domain's live XML", () => {
  const domain = domainFromXml(QEMU_RUNNING_DOMAIN_XML);

  test("reads the identity, sizes and boot configuration", () => {
    assert.equal(domain.type, "qemu");
    assert.equal(domain.id, 19);
    assert.equal(domain.name, "domxml-sample");
    assert.equal(domain.uuid, "614e9591-7682-4a2e-8d6e-a498565e8002");
    assert.deepEqual(domain.memory, { value: 262144, unit: "KiB" });
    assert.deepEqual(domain.vcpu, { count: 1, placement: "static" });
    assert.equal(domain.os.machine, "pc-q35-7.2");
    assert.equal(domain.os.cmdline, "console=ttyS0 quiet panic=-1 root=LABEL=guest-root");
    assert.deepEqual(domain.cpu?.features, [
      { name: "hypervisor", policy: "require" },
      { name: "lahf_lm", policy: "require" },
    ]);
    assert.deepEqual(domain.qemuCommandline, { args: ["-no-user-config"] });
  });

  test("reads the metadata element", () => {
    const app = findMetadata(domain, "http://example.org/app/1");
    assert.equal(app && metadataChildText(app, "uid"), "1234-abcd");
  });

  test("reads disks with their aliases and addresses, ignoring the backing chain", () => {
    assert.deepEqual(domain.devices.disks, [
      {
        type: "file",
        device: "disk",
        driver: { name: "qemu", type: "qcow2", cache: "none" },
        source: "/var/lib/images/vm1/root.qcow2",
        target: { dev: "vda", bus: "virtio" },
        serial: "rootdisk",
        bootOrder: 1,
        alias: "ua-containerdisk",
        address: { type: "pci", domain: "0x0000", bus: "0x04", slot: "0x00", function: "0x0" },
      },
      {
        type: "file",
        device: "cdrom",
        driver: { name: "qemu", type: "raw" },
        source: "/var/lib/images/vm1/cidata.iso",
        target: { dev: "sda", bus: "sata" },
        readonly: true,
        alias: "sata0-0-0",
        address: { type: "drive", controller: "0", bus: "0", target: "0", unit: "0" },
      },
    ]);
  });

  test("reads the runtime pty of the serial console and the VNC socket", () => {
    const serial = domain.devices.serials?.[0];
    assert.equal(serial?.sourcePath, "/dev/pts/0");
    assert.deepEqual(serial?.log, { file: "/var/lib/images/vm1/serial.log", append: false });
    assert.deepEqual(serial?.target, { type: "isa-serial", port: 0, model: "isa-serial" });
    assert.equal(domain.devices.consoles?.[0]?.target?.type, "serial");
    assert.deepEqual(domain.devices.graphics, [
      { type: "vnc", listen: { type: "socket", socket: "/var/lib/images/vm1/vnc.sock" } },
    ]);
  });

  test("reads the devices libvirt added", () => {
    assert.equal(domain.devices.emulator, "/usr/bin/qemu-system-x86_64");
    assert.equal(domain.devices.controllers?.length, 11);
    assert.deepEqual(
      domain.devices.inputs?.map((input) => `${input.type}/${input.bus}`),
      ["mouse/ps2", "keyboard/ps2"],
    );
    assert.equal(domain.devices.videos?.[0]?.model.type, "cirrus");
    assert.equal(domain.devices.interfaces?.[0]?.alias, "ua-default");
    assert.equal(domain.devices.channels?.[0]?.target.state, "disconnected");
    assert.deepEqual(domain.devices.rngs?.[0]?.backend, { model: "random", device: "/dev/urandom" });
  });
});

describe("libvirt samples written back", () => {
  const samples = {
    "running qemu domain": QEMU_RUNNING_DOMAIN_XML,
    "inactive qemu domain": QEMU_INACTIVE_DOMAIN_XML,
    "test driver domain": TEST_DRIVER_DOMAIN_XML,
  };
  for (const [name, xml] of Object.entries(samples)) {
    test(`${name}: model → XML → model is unchanged`, () => {
      const parsed = domainFromXml(xml);
      assert.deepEqual(domainFromXml(domainToXml(parsed)), parsed);
    });
  }

  test("the test driver's domain has a network interface and a virtio balloon", () => {
    const domain = domainFromXml(TEST_DRIVER_DOMAIN_XML);
    assert.equal(domain.type, "test");
    assert.deepEqual(domain.os.bootDevices, ["hd"]);
    assert.deepEqual(domain.devices.interfaces?.[0], {
      type: "network",
      network: "default",
      mac: "aa:bb:cc:dd:ee:ff",
      targetDev: "testnet0",
      address: { type: "pci", domain: "0x0000", bus: "0x00", slot: "0x01", function: "0x0" },
    });
    assert.equal(domain.devices.memballoon?.model, "virtio");
    assert.deepEqual(domain.currentMemory, { value: 2097152, unit: "KiB" });
  });
});
