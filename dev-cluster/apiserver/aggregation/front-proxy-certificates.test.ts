import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { ensureFrontProxyCertificates } from "./front-proxy-certificates.js";

describe("front-proxy certificates", () => {
  let dataDir = "";
  after(async () => rm(dataDir, { recursive: true, force: true }));

  test("a CA of their own and a client certificate for front-proxy-client, kept across starts", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "front-proxy-"));
    const first = await ensureFrontProxyCertificates(dataDir);
    const ca = new X509Certificate(first.caCertPem);
    const client = new X509Certificate(first.clientCertPem);
    assert.equal(ca.ca, true);
    assert.ok(client.verify(ca.publicKey), "the front-proxy CA signed the client certificate");
    assert.match(client.subject, /CN=front-proxy-client/);
    assert.deepEqual(client.keyUsage, ["1.3.6.1.5.5.7.3.2"], "extKeyUsage clientAuth");
    assert.equal((await stat(join(dataDir, "pki", "front-proxy-client.key"))).mode & 0o777, 0o600);
    assert.deepEqual(await ensureFrontProxyCertificates(dataDir), first);
  });
});
