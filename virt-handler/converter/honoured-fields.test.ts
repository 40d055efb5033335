// Fields the converter honours since admission stopped accepting fields it ignores (api/README.md):
// an empty CD-ROM tray, a shared host disk, logSerialConsole, autoattachInputDevice.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { convert, refuses, spec } from "./testing/test-conversions.js";

describe("fields honoured by the converter", () => {
  test("a CD-ROM naming no volume is a drive with an empty tray, without a ua- alias", () => {
    const domain = convert(
      spec(
        { devices: { disks: [{ name: "root" }, { name: "media", cdrom: { bus: "sata" }, bootOrder: 2 }] } },
        { volumes: [{ name: "root", containerDisk: { image: "localhost/guest" } }] },
      ),
    );
    const media = domain.devices.disks?.[1];
    assert.deepEqual(media, {
      type: "file",
      device: "cdrom",
      driver: { name: "qemu", type: "raw" },
      target: { dev: "sda", bus: "sata", tray: "closed" },
      readonly: true,
      bootOrder: 2,
    });
    assert.equal(domain.devices.disks?.[0]?.alias, "ua-root");
  });

  test("a plain disk naming no volume is still refused", () => {
    refuses(
      spec({ devices: { disks: [{ name: "ghost", disk: {} }] } }),
      "InvalidSpec",
      /no volume has that name/,
    );
  });

  test("a hostDisk with shared: true is a shareable disk", () => {
    const hostDisk = (shared: boolean) =>
      convert(
        spec(
          { devices: { disks: [{ name: "data" }] } },
          { volumes: [{ name: "data", hostDisk: { path: "/srv/data.img", type: "Disk", shared } }] },
        ),
      ).devices.disks?.[0]?.shareable;
    assert.equal(hostDisk(true), true);
    assert.equal(hostDisk(false), undefined);
  });

  test("logSerialConsole: false keeps the console but writes no log file", () => {
    const { devices } = convert(spec({ devices: { logSerialConsole: false } }), {
      serialLogPath: "/var/log/vm/serial.log",
    });
    assert.deepEqual(devices.serials, [{ type: "pty", target: { port: 0 } }]);
  });

  test("autoattachInputDevice: a usb tablet when no input is named; named inputs stay as they are", () => {
    assert.deepEqual(convert(spec({ devices: { autoattachInputDevice: true } })).devices.inputs, [
      { type: "tablet", bus: "usb", alias: "ua-default-0" },
    ]);
    const named = convert(
      spec({ devices: { autoattachInputDevice: true, inputs: [{ name: "kb", type: "keyboard" }] } }),
    );
    assert.deepEqual(named.devices.inputs, [{ type: "keyboard", bus: "usb", alias: "ua-kb" }]);
    assert.equal(convert(spec({ devices: { autoattachInputDevice: false } })).devices.inputs, undefined);
  });
});
