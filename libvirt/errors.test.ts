import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockingPool } from "./blocking-pool.js";
import { Connection } from "./connection.js";
import { ErrorCode, ErrorDomain, ErrorLevel } from "./error-codes.js";
import { LibvirtError } from "./errors.js";
import { testDomainXml, uniqueName } from "./testing/test-domains.js";

test("concurrent failures on worker threads and the main thread each carry their own error", async () => {
  const pool = new BlockingPool({ maxWorkers: 4 });
  const conn = await Connection.open("test:///default", { pool });
  const prefix = uniqueName("err");
  const domains = await Promise.all(
    Array.from({ length: 12 }, (_, i) => conn.defineDomain(testDomainXml(`${prefix}-${i}`))),
  );
  try {
    await Promise.all(domains.map((domain) => domain.start()));
    // Starting running domains fails with a message that names the domain, on up to 4 threads at once,
    // while the main thread fails calls of its own in between.
    const starts = domains.map((domain) => domain.start());
    for (let i = 0; i < 12; i++) {
      assert.throws(
        () => conn.lookupDomainByName(`${prefix}-missing-${i}`),
        (err: unknown) =>
          LibvirtError.is(err, ErrorCode.NoDomain) && err.operation === "virDomainLookupByName",
      );
    }
    const results = await Promise.allSettled(starts);
    results.forEach((result, i) => {
      assert.equal(result.status, "rejected");
      const err = result.status === "rejected" ? result.reason : undefined;
      assert.ok(LibvirtError.is(err, ErrorCode.InternalError), String(err));
      assert.equal(err.domain, ErrorDomain.Test);
      assert.equal(err.libvirtMessage, `internal error: Domain '${prefix}-${i}' is already running`);
    });
  } finally {
    for (const domain of domains) {
      await domain.destroy();
      await domain.undefine();
      domain.free();
    }
    await conn.close();
    await pool.close();
  }
});

test("LibvirtError names its code, keeps libvirt's text and tells codes apart", () => {
  const err = new LibvirtError("virDomainCreate", {
    code: ErrorCode.OperationInvalid,
    domain: ErrorDomain.Qemu,
    level: ErrorLevel.Error,
    message: "Requested operation is not valid: domain is already running",
  });
  assert.equal(err.name, "LibvirtError");
  assert.equal(err.reason, "OperationInvalid");
  assert.equal(err.message, "virDomainCreate: Requested operation is not valid: domain is already running");
  assert.equal(err.libvirtMessage, "Requested operation is not valid: domain is already running");
  assert.ok(LibvirtError.is(err));
  assert.ok(LibvirtError.is(err, ErrorCode.NoDomain, ErrorCode.OperationInvalid));
  assert.ok(!LibvirtError.is(err, ErrorCode.NoDomain));
  assert.ok(!LibvirtError.is(new Error("plain")));
  const future = new LibvirtError("virX", { code: 999, domain: 999, level: 2, message: "newer libvirt" });
  assert.equal(future.reason, "Code999");
});

test("a closed pool refuses work instead of hanging", async () => {
  const pool = new BlockingPool({ maxWorkers: 1 });
  const opened = await pool.run("open", "test:///default", true);
  assert.equal(typeof opened, "bigint");
  assert.equal(await pool.run("close", opened), 0);
  await pool.close();
  await assert.rejects(pool.run("open", "test:///default", true), /pool is closed/);
});
