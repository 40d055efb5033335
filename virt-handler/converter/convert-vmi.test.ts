// Table-driven converter tests, compute and platform: a VMI spec in, the parts of the DomainDefinition
// that spec decides out (each conversion also survives domainToXml → domainFromXml unchanged).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { legacyFirmwareUuid } from "../../api/index.js";
import { type DomainDefinition, domainFromXml, domainToXml } from "../../libvirt/domain-xml/index.js";
import type { ConversionOptions } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";
import { convertVmi, domainNameOf, vmiUidFromDomain } from "./convert-vmi.js";
import { convert, type Domain, OPTIONS, refuses, spec, UID } from "./testing/test-conversions.js";
import { vmiWithSpec } from "./testing/test-vmis.js";

describe("compute", () => {
  const cases: Array<
    [string, Partial<Domain>, Partial<ConversionOptions>, Pick<DomainDefinition, "type" | "vcpu" | "cpu">]
  > = [
    [
      "one vCPU by default, TCG's default model under emulation",
      {},
      {},
      {
        type: "qemu",
        vcpu: { count: 1, placement: "static" },
        cpu: { topology: { sockets: 1, cores: 1, threads: 1 } },
      },
    ],
    [
      "sockets × cores × threads",
      { cpu: { sockets: 2, cores: 3, threads: 2 } },
      {},
      {
        type: "qemu",
        vcpu: { count: 12, placement: "static" },
        cpu: { topology: { sockets: 2, cores: 3, threads: 2 } },
      },
    ],
    [
      "cores alone fill the rest with 1",
      { cpu: { cores: 4 } },
      {},
      {
        type: "qemu",
        vcpu: { count: 4, placement: "static" },
        cpu: { topology: { sockets: 1, cores: 4, threads: 1 } },
      },
    ],
    [
      "one socket per requested CPU",
      { resources: { requests: { memory: "128Mi", cpu: "3" } } },
      {},
      {
        type: "qemu",
        vcpu: { count: 3, placement: "static" },
        cpu: { topology: { sockets: 3, cores: 1, threads: 1 } },
      },
    ],
    [
      "host-model under KVM",
      { cpu: { model: "host-model" } },
      { emulation: false },
      {
        type: "kvm",
        vcpu: { count: 1, placement: "static" },
        cpu: { mode: "host-model", topology: { sockets: 1, cores: 1, threads: 1 } },
      },
    ],
    [
      "host-passthrough under KVM, dropped under TCG",
      { cpu: { model: "host-passthrough" } },
      {},
      {
        type: "qemu",
        vcpu: { count: 1, placement: "static" },
        cpu: { topology: { sockets: 1, cores: 1, threads: 1 } },
      },
    ],
    [
      "a named model with features (policy require by default)",
      {
        cpu: { model: "Haswell-noTSX", features: [{ name: "vmx" }, { name: "pcid", policy: "disable" }] },
      },
      {},
      {
        type: "qemu",
        vcpu: { count: 1, placement: "static" },
        cpu: {
          mode: "custom",
          match: "exact",
          model: { name: "Haswell-noTSX", fallback: "allow" },
          topology: { sockets: 1, cores: 1, threads: 1 },
          features: [
            { name: "vmx", policy: "require" },
            { name: "pcid", policy: "disable" },
          ],
        },
      },
    ],
  ];
  for (const [name, domain, options, expected] of cases) {
    test(name, () => {
      const converted = convert(spec(domain), options);
      assert.deepEqual({ type: converted.type, vcpu: converted.vcpu, cpu: converted.cpu }, expected);
    });
  }

  test("memory: memory.guest, else the request; in bytes", () => {
    assert.deepEqual(convert(spec({ memory: { guest: "1Gi" } })).memory, { value: 2 ** 30, unit: "b" });
    assert.deepEqual(convert(spec()).memory, { value: 128 * 2 ** 20, unit: "b" });
    assert.deepEqual(convert(spec({ resources: { limits: { memory: "256M" } } })).memory, {
      value: 256e6,
      unit: "b",
    });
    refuses({ domain: { devices: {} } }, "InvalidSpec", /no guest memory/);
  });

  test("machine type q35 by default, the VMI's otherwise; arch from the architecture", () => {
    assert.deepEqual(convert(spec()).os, { type: "hvm", arch: "x86_64", machine: "q35" });
    assert.equal(convert(spec({ machine: { type: "pc-q35-7.2" } })).os.machine, "pc-q35-7.2");
  });
});

describe("firmware", () => {
  test("the domain UUID is the VMI's uid; the guest's SMBIOS gets firmware.uuid and serial", () => {
    const domain = convert(
      spec({ firmware: { uuid: "5d307ca9-b3ef-428c-8861-06e72d69f223", serial: "s,1" } }),
    );
    assert.equal(domain.uuid, UID);
    assert.deepEqual(domain.qemuCommandline, {
      args: ["-smbios", "type=1,uuid=5d307ca9-b3ef-428c-8861-06e72d69f223,serial=s,,1"],
    });
  });

  test("without firmware.uuid, KubeVirt's default UUID from the name", () => {
    assert.deepEqual(convert(spec()).qemuCommandline?.args, [
      "-smbios",
      `type=1,uuid=${legacyFirmwareUuid("testvm")}`,
    ]);
  });

  test("kernelBoot: kernel, initrd and command line from the prepared volumes", () => {
    const os = convert(
      spec({
        firmware: {
          kernelBoot: {
            kernelArgs: "console=ttyS0 root=LABEL=x",
            container: { image: "localhost/guest", kernelPath: "/boot/vmlinuz", initrdPath: "/boot/initrd" },
          },
        },
      }),
    ).os;
    assert.deepEqual(os, {
      type: "hvm",
      arch: "x86_64",
      machine: "q35",
      kernel: "/vms/testvm/kernel",
      initrd: "/vms/testvm/initrd",
      cmdline: "console=ttyS0 root=LABEL=x",
    });
  });

  test("kernelBoot whose kernel was not prepared is refused", () => {
    const vmi = vmiWithSpec(spec({ firmware: { kernelBoot: { container: { image: "localhost/guest" } } } }), {
      uid: UID,
    });
    assert.throws(
      () => convertVmi(vmi, { disks: new Map() }, OPTIONS),
      /kernelBoot.container is set but its kernel was not prepared/,
    );
  });

  test("BIOS with serial output; EFI refused without OVMF, firmware auto-selection with it", () => {
    assert.equal(
      convert(spec({ firmware: { bootloader: { bios: { useSerial: true } } } })).os.biosUseSerial,
      true,
    );
    const efi = spec({ firmware: { bootloader: { efi: {} } } });
    refuses(efi, "UnsupportedFirmware", /EFI boot needs OVMF/);
    const domain = convert(efi, { efiFirmwareAvailable: true });
    assert.equal(domain.os.firmware, "efi");
    assert.equal(domain.features?.smm, true, "secure boot needs SMM");
    assert.equal(domain.devices.videos?.[0]?.model.type, "bochs");
    const insecure = convert(spec({ firmware: { bootloader: { efi: { secureBoot: false } } } }), {
      efiFirmwareAvailable: true,
    });
    assert.equal(insecure.features?.smm, undefined, "no SMM without secure boot");
  });
});

describe("platform", () => {
  test("ACPI and APIC on, clock UTC, power-off and crash destroy, reboot restarts", () => {
    const domain = convert(spec());
    assert.deepEqual(
      [domain.features, domain.clock, domain.onPoweroff, domain.onReboot, domain.onCrash],
      [{ acpi: true, apic: true }, { offset: "utc" }, "destroy", "restart", "destroy"],
    );
  });

  test("features switched off, clock offsets, timers, rebootPolicy Terminate", () => {
    const domain = convert(
      spec({
        features: { acpi: { enabled: false }, apic: { enabled: false } },
        clock: {
          utc: { offsetSeconds: 3600 },
          timer: { rtc: { tickPolicy: "catchup" }, hpet: { present: false } },
        },
        rebootPolicy: "Terminate",
      }),
    );
    assert.deepEqual(domain.features, {});
    assert.deepEqual(domain.clock, {
      offset: "variable",
      adjustment: "3600",
      timers: [
        { name: "hpet", present: false },
        { name: "rtc", present: true, tickPolicy: "catchup" },
      ],
    });
    assert.equal(domain.onReboot, "destroy");
    assert.deepEqual(convert(spec({ clock: { timezone: "Europe/Paris" } })).clock, {
      offset: "timezone",
      timezone: "Europe/Paris",
    });
  });
});

describe("identity", () => {
  test("metadata names the VMI, read back from libvirt's XML with vmiUidFromDomain", () => {
    const domain = convert(spec({}, { terminationGracePeriodSeconds: 12 }));
    const xml = domainToXml(domain);
    assert.match(xml, /<kubevirt xmlns="http:\/\/kubevirt.io">/);
    assert.match(xml, /<deletionGracePeriodSeconds>12<\/deletionGracePeriodSeconds>/);
    assert.deepEqual(vmiUidFromDomain(domainFromXml(xml)), { uid: UID, name: "testvm", namespace: "testns" });
    assert.equal(domain.name, OPTIONS.domainName);
  });

  test("vmiUidFromDomain ignores domains that are not ours", () => {
    const foreign = domainFromXml(
      "<domain type='qemu'><name>x</name><memory>1</memory><os><type>hvm</type></os><devices/></domain>",
    );
    assert.equal(vmiUidFromDomain(foreign), undefined);
  });

  test("domainNameOf: <namespace>_<name>, default namespace when none", () => {
    assert.equal(domainNameOf({ metadata: { namespace: "ns", name: "vm" } }), "ns_vm");
    assert.equal(domainNameOf({ metadata: { name: "vm" } }), "default_vm");
    assert.throws(() => domainNameOf({ metadata: {} }), VmiConversionError);
  });

  test("a VMI without uid is refused", () => {
    const vmi = vmiWithSpec(spec());
    delete vmi.metadata?.uid;
    assert.throws(() => convertVmi(vmi, { disks: new Map() }, OPTIONS), /no metadata.uid/);
  });
});
