// tsyringe (used by @peculiar/x509) needs a Reflect metadata polyfill loaded first.
import "reflect-metadata";
import { randomBytes, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

// @peculiar/x509 signs through WebCrypto; Node's implementation is complete for ECDSA P-256.
x509.cryptoProvider.set(webcrypto);

/** A certificate and its private key, both PEM (the key PKCS#8). */
export interface CertificateAndKey {
  certPem: string;
  keyPem: string;
}

const keyAlgorithm = { name: "ECDSA", namedCurve: "P-256" };
const signingAlgorithm = { name: "ECDSA", hash: "SHA-256" };
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

async function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(keyAlgorithm, true, ["sign", "verify"]);
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", key);
  return x509.PemConverter.encode(pkcs8, "PRIVATE KEY");
}

async function importSigningKey(keyPem: string): Promise<webcrypto.CryptoKey> {
  try {
    const der = x509.PemConverter.decodeFirst(keyPem);
    return await webcrypto.subtle.importKey("pkcs8", der, keyAlgorithm, false, ["sign"]);
  } catch (error) {
    throw new Error("the CA key is not a PKCS#8 ECDSA P-256 key", { cause: error });
  }
}

/** A positive 128-bit serial number: Go rejects negative serials, and the top bit makes it negative. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return bytes.toString("hex");
}

/** Validity from an hour ago (tolerating clock skew) for `days` days. */
function validity(days: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - hourMs), notAfter: new Date(now + days * dayMs) };
}

/** A self-signed ECDSA P-256 CA certificate that may sign leaf certificates only. */
export async function createCertificateAuthority(
  commonName: string,
  days: number,
): Promise<CertificateAndKey> {
  const keys = await generateKeyPair();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [commonName] }],
    ...validity(days),
    keys,
    signingAlgorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: certificate.toString("pem"), keyPem: await privateKeyPem(keys.privateKey) };
}

interface LeafRequest {
  subject: x509.JsonName;
  days: number;
  usage: x509.ExtendedKeyUsage;
  subjectAltNames?: x509.JsonGeneralName[];
}

async function issueLeaf(ca: CertificateAndKey, request: LeafRequest): Promise<CertificateAndKey> {
  const caCertificate = new x509.X509Certificate(ca.certPem);
  const signingKey = await importSigningKey(ca.keyPem);
  const keys = await generateKeyPair();
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([request.usage], false),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(caCertificate.publicKey),
  ];
  if (request.subjectAltNames) {
    extensions.push(new x509.SubjectAlternativeNameExtension(request.subjectAltNames, false));
  }
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: request.subject,
    issuer: caCertificate.subjectName,
    ...validity(request.days),
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm,
    extensions,
  });
  return { certPem: certificate.toString("pem"), keyPem: await privateKeyPem(keys.privateKey) };
}

/** A TLS server certificate for the given DNS names and IP addresses (subjectAltName). */
export async function issueServerCertificate(
  ca: CertificateAndKey,
  names: { hosts: readonly string[]; ips: readonly string[] },
  days: number,
): Promise<CertificateAndKey> {
  const subjectAltNames: x509.JsonGeneralName[] = [
    ...names.hosts.map((value): x509.JsonGeneralName => ({ type: "dns", value })),
    ...names.ips.map((value): x509.JsonGeneralName => ({ type: "ip", value })),
  ];
  return issueLeaf(ca, {
    subject: [{ CN: [names.hosts[0] ?? names.ips[0] ?? "apiserver"] }],
    days,
    usage: x509.ExtendedKeyUsage.serverAuth,
    subjectAltNames,
  });
}

/**
 * A TLS client certificate in the form kube-apiserver reads identities from: the common name is
 * the user name, each organization a group.
 */
export async function issueClientCertificate(
  ca: CertificateAndKey,
  commonName: string,
  organizations: readonly string[],
  days = 365,
): Promise<CertificateAndKey> {
  const subject: x509.JsonName = [{ CN: [commonName] }];
  if (organizations.length > 0) subject.push({ O: [...organizations] });
  return issueLeaf(ca, { subject, days, usage: x509.ExtendedKeyUsage.clientAuth });
}
