import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Connection } from "./connection.js";
import { ErrorCode, ErrorDomain } from "./error-codes.js";
import { LibvirtError } from "./errors.js";
import { ListDomainsFlags } from "./flags.js";
import { DomainState } from "./states.js";
import { testDomainXml, uniqueName } from "./testing/test-domains.js";

describe("Connection on test:///default", () => {
  let conn: Connection;
  before(async () => {
    conn = await Connection.open("test:///default");
  });
  after(async () => {
    await conn.close();
  });

  test("describes the host, the driver and itself", () => {
    assert.equal(conn.uri(), "test:///default");
    assert.equal(conn.isAlive(), true);
    assert.equal(conn.connected, true);
    assert.ok(conn.hostname().length > 0);
    assert.match(conn.capabilities(), /^<capabilities>/);
    const node = conn.nodeInfo();
    assert.equal(node.model, "i686");
    assert.equal(node.cpus, 16);
    assert.ok(node.memoryKiB > 0);
    const { hypervisor, library } = conn.versions();
    assert.equal(library.major, 9);
    assert.match(library.text, /^\d+\.\d+\.\d+$/);
    assert.equal(hypervisor.text, "0.0.2");
  });

  test("keepalive is refused by a local driver with a typed error", () => {
    assert.throws(
      () => conn.setKeepAlive({ intervalSeconds: 5, count: 3 }),
      (err: unknown) =>
        LibvirtError.is(err, ErrorCode.NoSupport) && err.operation === "virConnectSetKeepAlive",
    );
  });

  test("looks domains up by name and UUID and lists them with filters", async () => {
    const builtIn = conn.lookupDomainByName("test");
    assert.equal(builtIn.name, "test");
    const byUuid = conn.lookupDomainByUUID(builtIn.uuid);
    assert.equal(byUuid.name, "test");
    const name = uniqueName("list");
    const inactive = await conn.defineDomain(testDomainXml(name));
    try {
      const activeNames = conn.listAllDomains(ListDomainsFlags.Active).map((d) => d.name);
      const inactiveNames = conn.listAllDomains(ListDomainsFlags.Inactive).map((d) => d.name);
      assert.ok(activeNames.includes("test") && !activeNames.includes(name));
      assert.ok(inactiveNames.includes(name) && !inactiveNames.includes("test"));
      assert.ok(conn.listAllDomains().length >= 2);
    } finally {
      await inactive.undefine();
    }
    for (const domain of [builtIn, byUuid, inactive]) domain.free();
  });

  test("a missing domain is a NoDomain error, or null from findDomainByName", () => {
    assert.throws(
      () => conn.lookupDomainByName("no-such-domain"),
      (err: unknown) => LibvirtError.is(err, ErrorCode.NoDomain) && err.reason === "NoDomain",
    );
    assert.throws(
      () => conn.lookupDomainByUUID("00000000-0000-0000-0000-000000000000"),
      (err: unknown) => LibvirtError.is(err, ErrorCode.NoDomain),
    );
    assert.equal(conn.findDomainByName("no-such-domain"), null);
  });

  test("readDomainByName reads a domain, its state and XML on a worker thread; null when there is none", async () => {
    const read = await conn.readDomainByName("test");
    assert.ok(read, "the built-in domain");
    try {
      assert.equal(read.domain.name, "test");
      assert.equal(read.state.state, DomainState.Running);
      assert.match(read.xml, /^<domain type='test'/);
      assert.equal(read.domain.isActive(), true, "the handle works on the main thread");
    } finally {
      read.domain.free();
    }
    assert.equal(await conn.readDomainByName("no-such-domain"), null);
  });

  test("a read-only connection may look but not define", async () => {
    const readOnly = await Connection.open("test:///default", { readOnly: true });
    try {
      assert.equal(readOnly.lookupDomainByName("test").name, "test");
      await assert.rejects(readOnly.defineDomain(testDomainXml(uniqueName("ro"))), (err: unknown) =>
        LibvirtError.is(err, ErrorCode.OperationDenied),
      );
    } finally {
      await readOnly.close();
    }
  });
});

describe("Connection lifecycle", () => {
  test("an unknown URI fails with libvirt's error, read on the thread that opened it", async () => {
    await assert.rejects(Connection.open("bogus:///nothing"), (err: unknown) => {
      assert.ok(err instanceof LibvirtError);
      assert.equal(err.code, ErrorCode.NoConnect);
      assert.equal(err.domain, ErrorDomain.None);
      assert.equal(err.operation, "virConnectOpen");
      assert.match(err.message, /no connection driver available for bogus:\/\/\/nothing/);
      return true;
    });
  });

  test("after close every call fails with a typed error, and close is idempotent", async () => {
    const conn = await Connection.open("test:///default");
    const domain = conn.lookupDomainByName("test");
    await conn.close();
    await conn.close();
    assert.equal(conn.isAlive(), false);
    assert.throws(
      () => conn.uri(),
      (err: unknown) => LibvirtError.is(err, ErrorCode.NoConnect),
    );
    assert.throws(() => domain.state(), /closed/);
    domain.free();
  });
});
