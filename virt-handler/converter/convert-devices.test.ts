// Table-driven converter tests, devices: disks on every bus, interfaces, console, graphics, rng,
// balloon and inputs (each conversion also survives domainToXml → domainFromXml unchanged).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { stableMacAddress } from "../network/guest-mac.js";
import { nodeTapName } from "../network/tap-name.js";
import { convert, type Devices, OPTIONS, refuses, spec, UID, withDisks } from "./testing/test-conversions.js";

describe("storage", () => {
  test("each bus, with target names counted per prefix, and always a virtio-scsi controller (hotplug)", () => {
    const domain = convert(
      withDisks([
        { name: "a", disk: { bus: "virtio" } },
        { name: "b", disk: { bus: "sata" } },
        { name: "c", disk: {} },
        { name: "d", disk: { bus: "scsi" } },
        { name: "e", disk: { bus: "usb" } },
      ]),
    );
    assert.deepEqual(
      domain.devices.disks?.map((disk) => [
        disk.alias,
        disk.target.dev,
        disk.target.bus,
        disk.device,
        disk.source,
      ]),
      [
        ["ua-a", "vda", "virtio", "disk", "/vms/testvm/a.qcow2"],
        ["ua-b", "sda", "sata", "disk", "/vms/testvm/b.qcow2"],
        ["ua-c", "vdb", "virtio", "disk", "/vms/testvm/c.qcow2"],
        ["ua-d", "sdb", "scsi", "disk", "/vms/testvm/d.qcow2"],
        ["ua-e", "sdc", "usb", "disk", "/vms/testvm/e.qcow2"],
      ],
    );
    assert.deepEqual(domain.devices.controllers, [{ type: "scsi", index: 0, model: "virtio-scsi" }]);
    assert.deepEqual(convert(withDisks([{ name: "a" }])).devices.controllers, [
      { type: "scsi", index: 0, model: "virtio-scsi" },
    ]);
  });

  test("a hotpluggable volume's disk is not in the boot definition: it is attached once the domain runs", () => {
    const base = withDisks([{ name: "root" }, { name: "data", disk: { bus: "scsi" } }]);
    const hotplug = {
      ...base,
      volumes: [
        { name: "root", containerDisk: { image: "localhost/guest" } },
        { name: "data", persistentVolumeClaim: { claimName: "data", hotpluggable: true } },
      ],
    };
    assert.deepEqual(
      convert(hotplug).devices.disks?.map((disk) => disk.alias),
      ["ua-root"],
    );
  });

  test("a whole disk: driver, readonly, bootOrder, serial, cache, io", () => {
    const [disk] =
      convert(
        withDisks([
          {
            name: "root",
            disk: { bus: "virtio", readonly: true },
            bootOrder: 1,
            serial: "ROOT-1",
            cache: "writethrough",
            io: "threads",
          },
        ]),
      ).devices.disks ?? [];
    assert.deepEqual(disk, {
      type: "file",
      device: "disk",
      driver: { name: "qemu", type: "qcow2", cache: "writethrough", io: "threads" },
      source: "/vms/testvm/root.qcow2",
      target: { dev: "vda", bus: "virtio" },
      alias: "ua-root",
      readonly: true,
      serial: "ROOT-1",
      bootOrder: 1,
    });
  });

  test("cdrom: sata by default, read-only by default, tray; a cloud-init ISO on virtio is a read-only disk", () => {
    const domain = convert(
      spec(
        {
          devices: {
            disks: [
              { name: "iso", cdrom: {} },
              { name: "rw", cdrom: { bus: "scsi", readonly: false, tray: "open" } },
              { name: "ci", disk: { bus: "virtio" } },
            ],
          },
        },
        {
          volumes: [
            { name: "iso", containerDisk: { image: "localhost/iso" } },
            { name: "rw", containerDisk: { image: "localhost/iso" } },
            { name: "ci", cloudInitNoCloud: { userData: "x" } },
          ],
        },
      ),
    );
    assert.deepEqual(
      domain.devices.disks?.map((disk) => [
        disk.target,
        disk.device,
        disk.readonly ?? false,
        disk.driver?.type,
      ]),
      [
        [{ dev: "sda", bus: "sata", tray: "closed" }, "cdrom", true, "qcow2"],
        [{ dev: "sdb", bus: "scsi", tray: "open" }, "cdrom", false, "qcow2"],
        [{ dev: "vda", bus: "virtio" }, "disk", true, "raw"],
      ],
    );
  });

  test("a disk naming no volume, a virtio cdrom, an unknown bus, a lun: refused with the disk's name", () => {
    refuses(
      spec({ devices: { disks: [{ name: "ghost" }] } }),
      "InvalidSpec",
      /disk ghost names no usable volume: no volume has that name/,
    );
    refuses(
      withDisks([{ name: "cd", cdrom: { bus: "virtio" } }]),
      "InvalidSpec",
      /disk cd: a cdrom cannot be on the virtio bus/,
    );
    refuses(withDisks([{ name: "f", disk: { bus: "floppy" } }]), "InvalidSpec", /disk f: unknown bus floppy/);
    refuses(withDisks([{ name: "l", lun: {} }]), "UnsupportedDevice", /disk l: lun disks/);
    refuses(withDisks([{ name: "c", cache: "unsafe" }]), "InvalidSpec", /disk c: unknown cache mode unsafe/);
  });
});

describe("network: the pod network", () => {
  function interfacesOf(
    interfaces: NonNullable<Devices["interfaces"]>,
    networks = interfaces.map((i) => ({ name: i.name, pod: {} })),
  ) {
    return convert(spec({ devices: { interfaces } }, { networks })).devices.interfaces;
  }

  test("masquerade and bridge: a tap on the node for the launcher pod; a given MAC (normalised), else a stable derived one; models", () => {
    assert.deepEqual(
      interfacesOf([
        { name: "default", masquerade: {}, macAddress: "DE-AD-BE-EF-00-01" },
        { name: "second", bridge: {}, model: "e1000", bootOrder: 2 },
        { name: "third", masquerade: {}, state: "down" },
        { name: "gone", masquerade: {}, state: "absent" },
      ]),
      [
        {
          type: "ethernet",
          mac: "de:ad:be:ef:00:01",
          model: "virtio",
          alias: "ua-default",
          targetDev: nodeTapName(UID, "default"),
          targetManaged: false,
        },
        {
          type: "ethernet",
          mac: stableMacAddress(UID, "second"),
          model: "e1000",
          alias: "ua-second",
          targetDev: nodeTapName(UID, "second"),
          targetManaged: false,
          bootOrder: 2,
        },
        {
          type: "ethernet",
          mac: stableMacAddress(UID, "third"),
          model: "virtio",
          alias: "ua-third",
          targetDev: nodeTapName(UID, "third"),
          targetManaged: false,
          linkState: "down",
        },
      ],
    );
  });

  test("derived MACs are stable, distinct per interface and VMI, locally administered unicast", () => {
    const mac = stableMacAddress(UID, "default");
    assert.equal(mac, stableMacAddress(UID, "default"));
    assert.notEqual(mac, stableMacAddress(UID, "other"));
    assert.notEqual(mac, stableMacAddress("another-uid", "default"));
    assert.match(mac, /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
    assert.equal(Number.parseInt(mac.slice(0, 2), 16) & 0x03, 0x02);
  });

  test("the defaults' pod interface; none when autoattachPodInterface is false", () => {
    assert.deepEqual(convert(spec()).devices.interfaces, [
      {
        type: "ethernet",
        mac: stableMacAddress(UID, "default"),
        model: "virtio",
        alias: "ua-default",
        targetDev: nodeTapName(UID, "default"),
        targetManaged: false,
      },
    ]);
    assert.equal(convert(spec({ devices: { autoattachPodInterface: false } })).devices.interfaces, undefined);
  });

  test("multus networks, other bindings and missing networks are refused with the interface's name", () => {
    refuses(
      spec(
        { devices: { interfaces: [{ name: "m", bridge: {} }] } },
        { networks: [{ name: "m", multus: { networkName: "ns/net" } }] },
      ),
      "UnsupportedInterface",
      /interface m: only the pod network.*ns\/net/,
    );
    refuses(
      spec({ devices: { interfaces: [{ name: "s", sriov: {} }] } }, { networks: [{ name: "s", pod: {} }] }),
      "UnsupportedInterface",
      /interface s: the sriov binding/,
    );
    refuses(
      spec(
        { devices: { interfaces: [{ name: "x", masquerade: {} }] } },
        { networks: [{ name: "y", pod: {} }] },
      ),
      "InvalidSpec",
      /interface x names no network/,
    );
    refuses(
      spec(
        { devices: { interfaces: [{ name: "d", masquerade: {}, macAddress: "nope" }] } },
        { networks: [{ name: "d", pod: {} }] },
      ),
      "InvalidSpec",
      /interface d: nope is not a MAC/,
    );
  });
});

describe("console, graphics, rng, balloon, inputs", () => {
  test("a pty serial console and VNC on the unix socket by default", () => {
    const { devices } = convert(spec());
    assert.deepEqual(devices.serials, [{ type: "pty", target: { port: 0 } }]);
    assert.deepEqual(devices.consoles, [{ type: "pty", target: { type: "serial", port: 0 } }]);
    assert.deepEqual(devices.graphics, [
      { type: "vnc", listen: { type: "socket", socket: OPTIONS.vncSocketPath } },
    ]);
    assert.deepEqual(devices.videos, [{ model: { type: "vga", vram: 16384, heads: 1 } }]);
    assert.deepEqual(devices.memballoon, { model: "virtio", statsPeriodSeconds: 10 });
    assert.equal(devices.rngs, undefined);
    assert.equal(devices.inputs, undefined);
  });

  test("the serial log file; nothing when autoattach is off", () => {
    const logged = convert(spec(), { serialLogPath: "/var/log/vm/serial.log" }).devices;
    assert.deepEqual(logged.serials?.[0]?.log, { file: "/var/log/vm/serial.log", append: true });
    const bare = convert(
      spec({
        devices: {
          autoattachSerialConsole: false,
          autoattachGraphicsDevice: false,
          autoattachMemBalloon: false,
        },
      }),
    ).devices;
    assert.deepEqual(
      [bare.serials, bare.consoles, bare.graphics, bare.videos, bare.memballoon],
      [undefined, undefined, undefined, undefined, { model: "none" }],
    );
  });

  test("rng from /dev/urandom, inputs, a video type", () => {
    const { devices } = convert(
      spec({
        devices: {
          rng: {},
          inputs: [
            { name: "tab", type: "tablet", bus: "virtio" },
            { name: "kb", type: "keyboard" },
          ],
          video: { type: "virtio" },
        },
      }),
    );
    assert.deepEqual(devices.rngs, [
      { model: "virtio", backend: { model: "random", device: "/dev/urandom" } },
    ]);
    assert.deepEqual(devices.inputs, [
      { type: "tablet", bus: "virtio", alias: "ua-tab" },
      { type: "keyboard", bus: "usb", alias: "ua-kb" },
    ]);
    assert.deepEqual(devices.videos, [{ model: { type: "virtio", heads: 1 } }]);
  });

  test("hardware kubevirt-ts cannot give is refused, not dropped", () => {
    refuses(
      spec({ devices: { gpus: [{ name: "g", deviceName: "nvidia.com/x" }] } }),
      "UnsupportedDevice",
      /GPUs/,
    );
    refuses(spec({ devices: { tpm: {} } }), "UnsupportedDevice", /TPM/);
    refuses(
      spec({ memory: { guest: "128Mi", hugepages: { pageSize: "2Mi" } } }),
      "UnsupportedDevice",
      /hugepages/,
    );
  });
});
