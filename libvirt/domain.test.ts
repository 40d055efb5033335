import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, test } from "node:test";
import { Connection } from "./connection.js";
import type { Domain } from "./domain.js";
import { ErrorCode, ErrorDomain } from "./error-codes.js";
import { LibvirtError } from "./errors.js";
import {
  DestroyFlags,
  DomainXMLFlags,
  InterfaceAddressSource,
  IPAddressType,
  MetadataType,
  ModificationImpact,
  ShutdownFlags,
  StartFlags,
  UndefineFlags,
} from "./flags.js";
import { DomainState, PausedReason, RunningReason, ShutoffReason } from "./states.js";
import { testDomainXml, uniqueName } from "./testing/test-domains.js";

describe("Domain on test:///default", () => {
  let conn: Connection;
  let domain: Domain;
  before(async () => {
    conn = await Connection.open("test:///default");
  });
  after(async () => {
    await conn.close();
  });
  beforeEach(async () => {
    domain = await conn.defineDomain(testDomainXml(uniqueName("dom")));
  });
  afterEach(async () => {
    if (domain.isActive()) await domain.destroy();
    await domain.undefine();
    domain.free();
  });

  test("goes through start, suspend, resume, reboot, reset, shutdown with typed states", async () => {
    assert.deepEqual(domain.state(), { state: DomainState.Shutoff, reason: ShutoffReason.Unknown });
    assert.equal(domain.id(), null);
    assert.equal(domain.isPersistent(), true);
    await domain.start();
    assert.deepEqual(domain.state(), { state: DomainState.Running, reason: RunningReason.Booted });
    assert.ok((domain.id() ?? 0) > 0);
    await domain.suspend();
    assert.deepEqual(domain.state(), { state: DomainState.Paused, reason: PausedReason.User });
    await domain.resume();
    assert.deepEqual(domain.state(), { state: DomainState.Running, reason: RunningReason.Unpaused });
    await domain.reboot();
    await domain.reset();
    assert.equal(domain.state().state, DomainState.Running);
    await domain.shutdown();
    assert.deepEqual(domain.state(), { state: DomainState.Shutoff, reason: ShutoffReason.Shutdown });
    assert.equal(domain.isActive(), false);
  });

  test("destroy, graceful and forced, leaves the domain shut off as destroyed", async () => {
    await domain.start();
    await domain.destroy(DestroyFlags.Graceful);
    assert.deepEqual(domain.state(), { state: DomainState.Shutoff, reason: ShutoffReason.Destroyed });
    await domain.start();
    await domain.destroy();
    assert.equal(domain.state().state, DomainState.Shutoff);
  });

  test("failed actions reject with libvirt's code, domain and message", async () => {
    await assert.rejects(domain.destroy(), (err: unknown) => {
      assert.ok(LibvirtError.is(err, ErrorCode.OperationInvalid));
      assert.equal(err.domain, ErrorDomain.Domain);
      assert.equal(err.libvirtMessage, "Requested operation is not valid: domain is not running");
      return true;
    });
    // The test driver has no paused start and no ACPI; the flags reach it and are refused.
    await assert.rejects(domain.start(StartFlags.Paused), (err: unknown) =>
      LibvirtError.is(err, ErrorCode.InvalidArg),
    );
    await domain.start();
    await assert.rejects(domain.shutdown(ShutdownFlags.AcpiPowerButton), /unsupported flags \(0x1\)/);
    await assert.rejects(domain.start(), (err: unknown) => LibvirtError.is(err, ErrorCode.InternalError));
  });

  test("reports info, XML and the name of a defined domain", async () => {
    await domain.start();
    const info = domain.info();
    assert.equal(info.state, DomainState.Running);
    assert.equal(info.maxMemoryKiB, 64 * 1024);
    assert.equal(info.vcpus, 2);
    assert.ok(info.cpuTimeNs > 0);
    const xml = domain.xml();
    assert.match(xml, new RegExp(`<name>${domain.name}</name>`));
    assert.match(xml, new RegExp(`<uuid>${domain.uuid}</uuid>`));
    assert.match(domain.xml(DomainXMLFlags.Inactive), /<domain type='test'>/);
  });

  test("gets and sets metadata of every type", () => {
    assert.equal(domain.metadata(MetadataType.Title), null);
    domain.setMetadata(MetadataType.Title, "a title");
    domain.setMetadata(MetadataType.Description, "a description", { impact: ModificationImpact.Config });
    const uri = "http://example.org/binding-test/v1";
    domain.setMetadata(MetadataType.Element, "<owner name='alice'/>", { key: "bt", uri });
    assert.equal(domain.metadata(MetadataType.Title), "a title");
    assert.equal(domain.metadata(MetadataType.Description), "a description");
    assert.equal(domain.metadata(MetadataType.Element, { uri }), '<owner name="alice"/>');
    domain.setMetadata(MetadataType.Title, null);
    assert.equal(domain.metadata(MetadataType.Title), null);
    assert.throws(
      () => domain.metadata(MetadataType.Element),
      (err: unknown) => LibvirtError.is(err),
    );
  });

  test("reads interface addresses from every source, and block and interface counters", async () => {
    await domain.start();
    for (const source of [
      InterfaceAddressSource.Lease,
      InterfaceAddressSource.Agent,
      InterfaceAddressSource.Arp,
    ]) {
      const interfaces = await domain.interfaceAddresses(source);
      assert.equal(interfaces.length, 1);
      assert.equal(interfaces[0]?.hardwareAddress, "52:54:00:00:00:01");
      assert.equal(interfaces[0]?.addresses[0]?.type, IPAddressType.IPv4);
      assert.match(interfaces[0]?.addresses[0]?.address ?? "", /^\d+\.\d+\.\d+\.\d+$/);
    }
    assert.ok(domain.blockStats("vda").readBytes >= 0);
    assert.ok(domain.interfaceStats("52:54:00:00:00:01").rxBytes >= 0);
    assert.throws(
      () => domain.interfaceStats("nope0"),
      (err: unknown) => LibvirtError.is(err, ErrorCode.InvalidArg),
    );
    assert.throws(
      () => domain.blockStats("vdz"),
      (err: unknown) => LibvirtError.is(err, ErrorCode.InvalidArg),
    );
  });

  test("console streams are refused by the test driver with NoSupport", async () => {
    await domain.start();
    assert.throws(
      () => domain.openConsole(),
      (err: unknown) => LibvirtError.is(err, ErrorCode.NoSupport),
    );
  });
});

describe("Domain handles", () => {
  test("undefine with flags, then every call on the freed object fails clearly", async () => {
    const conn = await Connection.open("test:///default");
    try {
      const domain = await conn.defineDomain(testDomainXml(uniqueName("undef")));
      const name = domain.name;
      await domain.undefine(UndefineFlags.ManagedSave | UndefineFlags.SnapshotsMetadata);
      assert.equal(conn.findDomainByName(name), null);
      domain.free();
      domain.free();
      assert.throws(() => domain.state(), /was freed/);
    } finally {
      await conn.close();
    }
  });

  test("defining invalid XML rejects with an XML error", async () => {
    const conn = await Connection.open("test:///default");
    try {
      await assert.rejects(conn.defineDomain("<domain"), (err: unknown) => {
        return LibvirtError.is(err, ErrorCode.XmlDetail) && err.operation === "virDomainDefineXMLFlags";
      });
    } finally {
      await conn.close();
    }
  });
});
