// Domain models for tests: one that sets every field the model has, and a small typical one.
import type { DomainDefinition } from "../domain-types.js";
import { metadataElement } from "../metadata.js";

export const APP_NAMESPACE = "http://example.org/app/1";

/** Every field of the model set (but os.bootDevices, which libvirt refuses next to per-device boot orders). */
export function everyFieldDomain(name: string): DomainDefinition {
  return {
    type: "qemu",
    name,
    uuid: "3e3fce45-4f53-4fa7-bb32-11f34168b82b",
    title: "A title",
    description: "Quotes ' \" and <tags> & ampersands",
    metadata: [
      metadataElement(APP_NAMESPACE, "app", [{ name: "uid", children: ["0f1e2d3c-uid"] }, { name: "empty" }]),
    ],
    memory: { value: 256, unit: "MiB" },
    currentMemory: { value: 262144, unit: "KiB" },
    vcpu: { count: 2, current: 1, placement: "static" },
    cpu: {
      mode: "custom",
      match: "exact",
      check: "none",
      model: { name: "qemu64", fallback: "allow" },
      topology: { sockets: 1, dies: 1, cores: 2, threads: 1 },
      features: [
        { name: "x2apic", policy: "require" },
        { name: "svm", policy: "disable" },
      ],
    },
    os: {
      type: "hvm",
      arch: "x86_64",
      machine: "q35",
      kernel: "/var/lib/images/vmlinuz",
      initrd: "/var/lib/images/initramfs.gz",
      cmdline: 'console=ttyS0 root=LABEL=x quiet msg="a&b"',
      bootMenu: { enable: true, timeoutMs: 3000 },
      biosUseSerial: true,
    },
    features: { acpi: true, apic: true, pae: true, vmport: false },
    clock: {
      offset: "utc",
      timers: [
        { name: "rtc", tickPolicy: "catchup" },
        { name: "pit", tickPolicy: "delay" },
        { name: "hpet", present: false },
      ],
    },
    onPoweroff: "destroy",
    onReboot: "restart",
    onCrash: "coredump-destroy",
    devices: {
      emulator: "/usr/bin/qemu-system-x86_64",
      disks: [
        {
          type: "file",
          device: "disk",
          driver: {
            name: "qemu",
            type: "qcow2",
            cache: "none",
            io: "native",
            discard: "unmap",
            errorPolicy: "stop",
          },
          source: "/var/lib/images/root.qcow2",
          target: { dev: "vda", bus: "virtio" },
          serial: "root-disk",
          bootOrder: 1,
          alias: "ua-rootdisk",
        },
        {
          type: "file",
          device: "cdrom",
          driver: { name: "qemu", type: "raw" },
          source: "/var/lib/images/cidata.iso",
          target: { dev: "sda", bus: "sata", tray: "closed" },
          readonly: true,
          address: { type: "drive", controller: "0", bus: "0", target: "0", unit: "0" },
        },
        {
          type: "block",
          device: "disk",
          driver: { name: "qemu", type: "raw", cache: "writeback" },
          source: "/dev/loop7",
          target: { dev: "sdb", bus: "scsi" },
          shareable: true,
        },
      ],
      controllers: [
        { type: "usb", index: 0, model: "qemu-xhci" },
        { type: "scsi", index: 0, model: "virtio-scsi", driver: { queues: 2 } },
        { type: "virtio-serial", index: 0 },
      ],
      interfaces: [
        { type: "user", mac: "52:54:00:12:34:56", model: "virtio", alias: "ua-default", linkState: "up" },
        { type: "ethernet", targetDev: "tap-vm2", model: "virtio", mtu: 1400 },
        { type: "network", network: "default", model: "e1000e", bootOrder: 2 },
        { type: "bridge", bridge: "br0", targetDev: "tap-vm1", model: "virtio" },
      ],
      serials: [{ type: "pty", log: { file: "/var/log/vm-serial.log", append: false }, target: { port: 0 } }],
      consoles: [{ type: "pty", target: { type: "serial", port: 0 } }],
      channels: [
        {
          type: "unix",
          sourceMode: "bind",
          sourcePath: "/run/vm/agent.sock",
          target: { type: "virtio", name: "org.qemu.guest_agent.0" },
        },
      ],
      inputs: [{ type: "tablet", bus: "usb" }],
      graphics: [{ type: "vnc", listen: { type: "socket", socket: "/run/vm/vnc.sock" } }],
      videos: [{ model: { type: "vga", vram: 16384, heads: 1, primary: true } }],
      memballoon: { model: "virtio", statsPeriodSeconds: 10 },
      rngs: [
        {
          model: "virtio",
          backend: { model: "random", device: "/dev/urandom" },
          rate: { bytes: 1024, periodMs: 1000 },
        },
      ],
    },
    qemuCommandline: {
      args: ["-netdev", "user,id=n0,hostfwd=tcp::2222-:22"],
      env: [{ name: "QEMU_X", value: "1" }],
    },
  };
}

/** What a node agent typically defines: a TCG guest booted from a kernel, with a disk and a serial console. */
export function typicalDomain(name: string): DomainDefinition {
  return {
    type: "qemu",
    name,
    metadata: [
      metadataElement("http://example.org/owner", "owner", [{ name: "uid", children: ["abc-123"] }]),
    ],
    memory: { value: 128, unit: "MiB" },
    vcpu: { count: 1 },
    os: {
      type: "hvm",
      arch: "x86_64",
      machine: "q35",
      kernel: "/images/vmlinuz",
      initrd: "/images/initramfs.gz",
      cmdline: "console=ttyS0 quiet panic=-1",
    },
    features: { acpi: true, apic: true },
    onPoweroff: "destroy",
    onReboot: "restart",
    onCrash: "destroy",
    devices: {
      disks: [
        {
          type: "file",
          device: "disk",
          driver: { name: "qemu", type: "qcow2" },
          source: "/images/root.qcow2",
          target: { dev: "vda", bus: "virtio" },
        },
      ],
      interfaces: [{ type: "user", model: "virtio" }],
      serials: [{ type: "pty", target: { port: 0 } }],
      consoles: [{ type: "pty", target: { type: "serial", port: 0 } }],
      memballoon: { model: "none" },
    },
  };
}
