import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { createServer as createHttpsServer, request as httpsRequest, type ServerOptions } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { TLSSocket } from "node:tls";
import {
  ensureServingCertificates,
  issueClientCertificate,
  loadCertificateAuthority,
} from "./certificates.js";

interface ClientOptions {
  ca?: string;
  servername?: string;
  cert?: string;
  key?: string;
}

/** Serves one HTTPS request on 127.0.0.1 and returns the body the client got (or the client's error). */
async function fetchOnce(serverOptions: ServerOptions, client: ClientOptions): Promise<string> {
  const server = createHttpsServer(serverOptions, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    res.end(peer?.subject ? `hello ${peer.subject.CN} ${[peer.subject.O ?? []].flat().join("+")}` : "hello");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string>((resolve, reject) => {
      const req = httpsRequest({ host: "127.0.0.1", port, path: "/", agent: false, ...client }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on("end", () => resolve(body));
      });
      req.on("error", reject);
      req.end();
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("ensureServingCertificates", () => {
  let dataDir = "";
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "certs-test-"));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test("issues a CA and a server certificate for the loopback names and the requested ones", async () => {
    const result = await ensureServingCertificates(dataDir, { hosts: ["dev.example"], ips: ["10.1.2.3"] });
    const ca = new X509Certificate(result.caCertPem);
    const server = new X509Certificate(result.certPem);
    assert.equal(ca.ca, true);
    assert.equal(server.ca, false);
    assert.ok(server.verify(ca.publicKey), "the CA signed the server certificate");
    for (const host of ["localhost", "dev.example"]) {
      assert.equal(server.checkHost(host, { subject: "never" }), host);
    }
    for (const ip of ["127.0.0.1", "10.1.2.3"]) assert.equal(server.checkIP(ip), ip);
    assert.equal(server.checkHost("other.example"), undefined);
    assert.deepEqual(server.keyUsage, ["1.3.6.1.5.5.7.3.1"], "extKeyUsage serverAuth");
    assert.ok(Date.parse(ca.validTo) - Date.now() > 9 * 365 * 24 * 3_600_000, "the CA lasts ten years");
    for (const file of ["ca.key", "apiserver.key"]) {
      assert.equal((await stat(join(dataDir, "pki", file))).mode & 0o777, 0o600, `${file} is private`);
    }
  });

  test("a client trusting only the CA reaches an HTTPS server by IP and by name", async () => {
    const { caCertPem, certPem, keyPem } = await ensureServingCertificates(dataDir, { hosts: [], ips: [] });
    const serverOptions = { cert: certPem, key: keyPem };
    assert.equal(await fetchOnce(serverOptions, { ca: caCertPem }), "hello");
    assert.equal(await fetchOnce(serverOptions, { ca: caCertPem, servername: "localhost" }), "hello");
    await assert.rejects(fetchOnce(serverOptions, {}), /self-signed|unable to verify/i);
    await assert.rejects(fetchOnce(serverOptions, { ca: caCertPem, servername: "other.example" }), {
      code: "ERR_TLS_CERT_ALTNAME_INVALID",
    });
  });

  test("reuses the certificates on the next start", async () => {
    const first = await ensureServingCertificates(dataDir, { hosts: ["dev.example"], ips: [] });
    const second = await ensureServingCertificates(dataDir, { hosts: ["dev.example"], ips: [] });
    assert.deepEqual(second, first);
  });

  test("re-issues the server certificate, not the CA, for new names or a damaged key", async () => {
    const first = await ensureServingCertificates(dataDir, { hosts: [], ips: [] });
    const widened = await ensureServingCertificates(dataDir, {
      hosts: ["new.example", "192.168.7.7"],
      ips: [],
    });
    assert.equal(widened.caCertPem, first.caCertPem);
    assert.notEqual(widened.certPem, first.certPem);
    const server = new X509Certificate(widened.certPem);
    assert.equal(server.checkHost("new.example", { subject: "never" }), "new.example");
    assert.equal(server.checkIP("192.168.7.7"), "192.168.7.7", "IP literals among hosts become IP SANs");

    await writeFile(join(dataDir, "pki", "apiserver.key"), "garbage");
    const repaired = await ensureServingCertificates(dataDir, { hosts: [], ips: [] });
    assert.equal(repaired.caCertPem, first.caCertPem);
    assert.notEqual(repaired.keyPem, "garbage");
    assert.equal(
      await fetchOnce({ cert: repaired.certPem, key: repaired.keyPem }, { ca: repaired.caCertPem }),
      "hello",
    );
  });

  test("rejects names that cannot go in a certificate", async () => {
    await assert.rejects(
      ensureServingCertificates(dataDir, { hosts: ["bad name"], ips: [] }),
      /not a DNS name/,
    );
    await assert.rejects(ensureServingCertificates(dataDir, { hosts: [], ips: ["300.1.1.1"] }), /not an IP/);
  });

  test("client certificates carry the user and groups and pass mutual TLS", async () => {
    const serving = await ensureServingCertificates(dataDir, { hosts: [], ips: [] });
    const ca = await loadCertificateAuthority(dataDir);
    assert.equal(ca.certPem, serving.caCertPem);
    const client = await issueClientCertificate(ca, "alice", ["devs", "system:masters"]);
    const certificate = new X509Certificate(client.certPem);
    assert.deepEqual(certificate.keyUsage, ["1.3.6.1.5.5.7.3.2"], "extKeyUsage clientAuth");
    const body = await fetchOnce(
      {
        cert: serving.certPem,
        key: serving.keyPem,
        ca: serving.caCertPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      { ca: serving.caCertPem, cert: client.certPem, key: client.keyPem },
    );
    assert.equal(body, "hello alice devs+system:masters");
  });
});
