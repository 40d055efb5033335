/**
 * X.509 issuing (@peculiar/x509 over Node's WebCrypto): a self-signed CA, and the TLS server or
 * client certificates it signs. ECDSA P-256 keys: small, fast to generate, and accepted by every
 * TLS stack Kubernetes components meet (Go's included). Not exported from runtime/index.ts: it
 * loads a Reflect polyfill and sets the library's crypto provider, which only issuers need.
 */
// tsyringe (used by @peculiar/x509) needs a Reflect metadata polyfill loaded first.
import "reflect-metadata";
import { randomBytes, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

// @peculiar/x509 signs through WebCrypto; Node's implementation is complete for ECDSA P-256.
x509.cryptoProvider.set(webcrypto);

/** A certificate and its private key, both PEM (the key PKCS#8). */
export interface CertificateAndKey {
  readonly certPem: string;
  readonly keyPem: string;
}

/** When a certificate is valid, in milliseconds since the epoch. */
export interface CertificateValidity {
  readonly notBefore: number;
  readonly notAfter: number;
}

/** What a certificate signed by the CA says. */
export interface CertificateRequest {
  readonly commonName: string;
  /** Subject organizations: kube-apiserver reads a client certificate's as the user's groups. */
  readonly organizations?: readonly string[];
  /** serverAuth for a TLS server, clientAuth for a TLS client. */
  readonly usage: "serverAuth" | "clientAuth";
  /** subjectAltName DNS names and IP addresses (a server's); none: no subjectAltName at all. */
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
}

const KEY_ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };
const SIGNING_ALGORITHM = { name: "ECDSA", hash: "SHA-256" };

/** A self-signed CA certificate that may sign leaf certificates only (pathLength 0). */
export async function createCertificateAuthority(
  commonName: string,
  validity: CertificateValidity,
): Promise<CertificateAndKey> {
  const keys = await generateKeyPair();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: [{ CN: [commonName] }],
    ...datesOf(validity),
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
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

/** A leaf certificate signed by `ca` (whose key must be PKCS#8 ECDSA P-256, as ours are). */
export async function issueCertificate(
  ca: CertificateAndKey,
  request: CertificateRequest,
  validity: CertificateValidity,
): Promise<CertificateAndKey> {
  const caCertificate = new x509.X509Certificate(ca.certPem);
  const signingKey = await importSigningKey(ca.keyPem);
  const keys = await generateKeyPair();
  const usage =
    request.usage === "serverAuth" ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    // An ECDSA key only signs (the TLS handshake): no keyEncipherment, which is RSA's.
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([usage], false),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(caCertificate.publicKey),
  ];
  const altNames = subjectAltNames(request);
  // RFC 5280: a subjectAltName extension, when present, names at least one.
  if (altNames.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(altNames, false));
  const subject: x509.JsonName = [{ CN: [request.commonName] }];
  if (request.organizations && request.organizations.length > 0)
    subject.push({ O: [...request.organizations] });
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject,
    issuer: caCertificate.subjectName,
    ...datesOf(validity),
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions,
  });
  return { certPem: certificate.toString("pem"), keyPem: await privateKeyPem(keys.privateKey) };
}

function subjectAltNames(request: CertificateRequest): x509.JsonGeneralName[] {
  return [
    ...(request.dnsNames ?? []).map((value): x509.JsonGeneralName => ({ type: "dns", value })),
    ...(request.ipAddresses ?? []).map((value): x509.JsonGeneralName => ({ type: "ip", value })),
  ];
}

function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"]);
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY");
}

async function importSigningKey(keyPem: string): Promise<webcrypto.CryptoKey> {
  try {
    const der = x509.PemConverter.decodeFirst(keyPem);
    return await webcrypto.subtle.importKey("pkcs8", der, KEY_ALGORITHM, false, ["sign"]);
  } catch (error) {
    throw new Error("the CA key is not a PKCS#8 ECDSA P-256 key", { cause: error });
  }
}

/** A positive 128-bit serial: Go's TLS refuses negative serials, and a set top bit makes one. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return bytes.toString("hex");
}

function datesOf(validity: CertificateValidity): { notBefore: Date; notAfter: Date } {
  return { notBefore: new Date(validity.notBefore), notAfter: new Date(validity.notAfter) };
}
