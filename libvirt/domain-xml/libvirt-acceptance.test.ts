// libvirt itself accepts what domainToXml writes: `virsh define --validate` checks it against libvirt's
// RelaxNG schema and the driver's own rules, on the daemon-less test:///default driver.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type DomainDefinition, domainFromXml, findMetadata, metadataChildText } from "./index.js";
import { APP_NAMESPACE, everyFieldDomain, typicalDomain } from "./testing/domain-fixtures.js";
import { defineAndDump as defineAndDumpOnTestDriver } from "./testing/virsh-test-driver.js";

describe("libvirt accepts the generated XML", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "domain-xml-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Defines the domain on a fresh test:///default connection and returns libvirt's XML for it. */
  const defineAndDump = (domain: DomainDefinition) =>
    defineAndDumpOnTestDriver(dir, domain, { validate: true });

  test("a domain with every field passes schema validation and reads back with what libvirt kept", async () => {
    const domain = everyFieldDomain("every-field");
    const dumped = domainFromXml(await defineAndDump(domain));
    assert.equal(dumped.type, "qemu");
    assert.equal(dumped.uuid, domain.uuid);
    assert.equal(dumped.description, domain.description);
    assert.equal(dumped.os.cmdline, domain.os.cmdline);
    assert.deepEqual(dumped.memory, { value: 262144, unit: "KiB" }); // libvirt normalises to KiB
    assert.deepEqual(dumped.cpu, domain.cpu);
    assert.deepEqual(dumped.clock, domain.clock);
    assert.deepEqual(dumped.features, domain.features);
    const app = findMetadata(dumped, APP_NAMESPACE);
    assert.equal(app && metadataChildText(app, "uid"), "0f1e2d3c-uid");
    assert.deepEqual(dumped.devices.disks?.[0], domain.devices.disks?.[0]);
    assert.deepEqual(
      dumped.devices.interfaces?.map((nic) => nic.type),
      domain.devices.interfaces?.map((nic) => nic.type),
    );
    assert.deepEqual(dumped.devices.serials?.[0]?.log, { file: "/var/log/vm-serial.log", append: false });
    assert.deepEqual(dumped.devices.graphics, domain.devices.graphics);
    assert.deepEqual(dumped.devices.rngs, domain.devices.rngs);
  });

  test("a typical domain is accepted unchanged apart from libvirt's additions", async () => {
    const domain = typicalDomain("typical");
    const dumped = domainFromXml(await defineAndDump(domain));
    assert.equal(dumped.name, "typical");
    assert.deepEqual(dumped.os.kernel, domain.os.kernel);
    assert.deepEqual(dumped.devices.disks?.[0]?.source, "/images/root.qcow2");
    assert.deepEqual(dumped.devices.memballoon, { model: "none" });
  });
});
