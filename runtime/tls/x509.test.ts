// The issuer's certificates as Node's own X.509 parser reads them: a CA that signs, leaves with
// the names and usage asked for, and no subjectAltName when none was asked for.
import assert from "node:assert/strict";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { describe, test } from "node:test";
import { createCertificateAuthority, issueCertificate } from "./x509.js";

const now = Date.now();
const validity = { notBefore: now - 60_000, notAfter: now + 3_600_000 };

describe("x509 issuing", () => {
  test("a server certificate for DNS names and IPs, signed by the CA, valid when asked", async () => {
    const ca = await createCertificateAuthority("test-ca", validity);
    const caCertificate = new X509Certificate(ca.certPem);
    assert.equal(caCertificate.ca, true);
    const leaf = await issueCertificate(
      ca,
      { commonName: "server", usage: "serverAuth", dnsNames: ["a.example"], ipAddresses: ["10.0.0.1"] },
      validity,
    );
    const certificate = new X509Certificate(leaf.certPem);
    assert.equal(certificate.ca, false);
    assert.equal(certificate.checkIssued(caCertificate), true);
    assert.equal(certificate.verify(caCertificate.publicKey), true);
    assert.equal(certificate.subjectAltName, "DNS:a.example, IP Address:10.0.0.1");
    assert.deepEqual(certificate.keyUsage, ["1.3.6.1.5.5.7.3.1"]);
    assert.equal(Date.parse(certificate.validTo), Math.floor(validity.notAfter / 1000) * 1000);
    assert.equal(certificate.checkPrivateKey(createPrivateKey(leaf.keyPem)), true);
  });

  test("a client certificate carries its organizations and no subjectAltName", async () => {
    const ca = await createCertificateAuthority("test-ca", validity);
    const leaf = await issueCertificate(
      ca,
      { commonName: "alice", organizations: ["system:masters"], usage: "clientAuth" },
      validity,
    );
    const certificate = new X509Certificate(leaf.certPem);
    assert.match(certificate.subject, /CN=alice/);
    assert.match(certificate.subject, /O=system:masters/);
    assert.equal(certificate.subjectAltName, undefined);
    assert.deepEqual(certificate.keyUsage, ["1.3.6.1.5.5.7.3.2"]);
  });

  test("a CA key that is not PKCS#8 ECDSA is refused with a reason", async () => {
    const ca = await createCertificateAuthority("test-ca", validity);
    await assert.rejects(
      issueCertificate({ ...ca, keyPem: "not a key" }, { commonName: "x", usage: "clientAuth" }, validity),
      /not a PKCS#8 ECDSA P-256 key/,
    );
  });
});
