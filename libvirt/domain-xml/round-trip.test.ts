import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type DomainDefinition,
  domainFromXml,
  domainToXml,
  findMetadata,
  metadataChildText,
  parseXmlDocument,
} from "./index.js";
import { APP_NAMESPACE, everyFieldDomain, typicalDomain } from "./testing/domain-fixtures.js";

function roundTrip(domain: DomainDefinition): DomainDefinition {
  return domainFromXml(domainToXml(domain));
}

describe("domain model → XML → model", () => {
  test("keeps every field of the model", () => {
    const domain = everyFieldDomain("every-field");
    assert.deepEqual(roundTrip(domain), domain);
  });

  test("keeps a typical kernel-boot TCG domain", () => {
    const domain = typicalDomain("vm-1");
    assert.deepEqual(roundTrip(domain), domain);
  });

  const variants: Array<[string, (domain: DomainDefinition) => DomainDefinition]> = [
    [
      "firmware boot with boot devices, EFI loader and nvram",
      (domain) => ({
        ...domain,
        os: {
          type: "hvm",
          machine: "q35",
          firmware: "efi",
          loader: { path: "/usr/share/OVMF/OVMF_CODE.fd", readonly: true, type: "pflash", secure: false },
          nvram: { path: "/var/lib/nvram/vm.fd", template: "/usr/share/OVMF/OVMF_VARS.fd" },
          bootDevices: ["cdrom", "hd"],
        },
      }),
    ],
    [
      "KVM with host-passthrough CPU and SMM",
      (domain) => ({
        ...domain,
        type: "kvm",
        cpu: { mode: "host-passthrough", topology: { sockets: 1, cores: 4, threads: 2 } },
        features: { acpi: true, smm: true },
      }),
    ],
    [
      "VNC on a TCP port, an empty cdrom and a builtin rng",
      (domain) => ({
        ...domain,
        devices: {
          disks: [
            {
              type: "file",
              device: "cdrom",
              target: { dev: "sdc", bus: "sata", tray: "open" },
              readonly: true,
            },
          ],
          graphics: [
            { type: "vnc", port: -1, autoport: true, listen: { type: "address", address: "127.0.0.1" } },
          ],
          rngs: [{ model: "virtio", backend: { model: "builtin" } }],
          memballoon: { model: "virtio", autodeflate: true },
        },
      }),
    ],
    [
      "clock in a time zone, passt backend and a file serial",
      (domain) => ({
        ...domain,
        clock: {
          offset: "timezone",
          timezone: "Europe/Paris",
          timers: [{ name: "kvmclock", present: true }],
        },
        devices: {
          interfaces: [
            { type: "user", model: "virtio", backend: { type: "passt", logFile: "/tmp/passt.log" } },
          ],
          serials: [
            {
              type: "file",
              sourcePath: "/tmp/serial.out",
              target: { type: "isa-serial", port: 0, model: "isa-serial" },
            },
          ],
          consoles: [
            { type: "pty", sourcePath: "/dev/pts/3", target: { type: "serial", port: 0 }, alias: "serial0" },
          ],
        },
      }),
    ],
  ];
  for (const [name, change] of variants) {
    test(`keeps ${name}`, () => {
      const domain = change(typicalDomain("variant"));
      assert.deepEqual(roundTrip(domain), domain);
    });
  }
});

describe("domainToXml", () => {
  test("writes the domain type and a well-formed document that escapes text and attributes", () => {
    const domain = everyFieldDomain("escape-test");
    const xml = domainToXml(domain);
    assert.match(
      xml,
      /^<domain type="qemu" xmlns:qemu="http:\/\/libvirt.org\/schemas\/domain\/qemu\/1.0">\n/,
    );
    assert.ok(
      xml.includes("<description>Quotes &apos; &quot; and &lt;tags&gt; &amp; ampersands</description>"),
    );
    assert.ok(xml.includes('<source file="/var/lib/images/root.qcow2"/>'));
    assert.equal(parseXmlDocument(xml).name, "domain");
  });

  test("leaves out what the model leaves out", () => {
    const xml = domainToXml(typicalDomain("minimal"));
    for (const absent of [
      "<uuid>",
      "<cpu",
      "<clock",
      "<title>",
      "xmlns:qemu",
      "<graphics",
      "<boot ",
      "<emulator>",
    ]) {
      assert.ok(!xml.includes(absent), `no ${absent}`);
    }
    assert.ok(xml.includes('<memballoon model="none"/>'));
  });

  test("writes a block disk's source as dev and a file disk's as file", () => {
    const xml = domainToXml(everyFieldDomain("sources"));
    assert.ok(xml.includes('<source dev="/dev/loop7"/>'));
    assert.ok(xml.includes('<source file="/var/lib/images/cidata.iso"/>'));
  });
});

describe("metadata", () => {
  test("round-trips a namespaced element and finds it by namespace", () => {
    const domain = roundTrip(everyFieldDomain("metadata-test"));
    const app = findMetadata(domain, APP_NAMESPACE);
    assert.ok(app);
    assert.equal(metadataChildText(app, "uid"), "0f1e2d3c-uid");
    assert.equal(findMetadata(domain, "http://example.org/other"), undefined);
  });

  test("understands the prefixed form virDomainSetMetadata produces", () => {
    const xml = `<domain type='qemu'><name>x</name><memory>1024</memory><os><type>hvm</type></os>
      <metadata><app:instance xmlns:app="${APP_NAMESPACE}"><app:uid>u-1</app:uid></app:instance></metadata>
    </domain>`;
    const domain = domainFromXml(xml);
    const element = findMetadata(domain, APP_NAMESPACE);
    assert.equal(element?.name, "app:instance");
    assert.equal(element && metadataChildText(element, "uid"), "u-1");
  });
});
