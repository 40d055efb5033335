/**
 * Reading back what was issued: PEM certificates and bundles parsed with Node's X509Certificate,
 * and the facts the operator decides on (validity, names, usage, issuer, key).
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { Validity } from "./certificate-lifetimes.js";

export interface ReadCertificate {
  /** The certificate alone, PEM, normalised (one trailing newline): bundles are joins of these. */
  readonly pem: string;
  readonly x509: X509Certificate;
  readonly validity: Validity;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const SERVER_AUTH_OID = "1.3.6.1.5.5.7.3.1";
const CLIENT_AUTH_OID = "1.3.6.1.5.5.7.3.2";

/** Parses one PEM certificate; throws saying why it cannot be read. */
export function readCertificate(pem: string): ReadCertificate {
  const [block, ...rest] = pem.match(PEM_BLOCK) ?? [];
  if (!block || rest.length > 0)
    throw new Error(`expected one PEM certificate, found ${rest.length + (block ? 1 : 0)}`);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(block);
  } catch (error) {
    throw new Error("the certificate does not parse", { cause: error });
  }
  return {
    pem: `${block.replace(/\r\n/g, "\n")}\n`,
    x509,
    validity: { notBefore: Date.parse(x509.validFrom), notAfter: Date.parse(x509.validTo) },
  };
}

/** Every certificate of a PEM bundle that parses (a damaged entry is dropped, not fatal). */
export function readBundle(bundlePem: string): ReadCertificate[] {
  const read: ReadCertificate[] = [];
  for (const block of bundlePem.match(PEM_BLOCK) ?? []) {
    try {
      read.push(readCertificate(block));
    } catch {
      // A bundle is a list of trust anchors: one unreadable entry must not take the others with it.
    }
  }
  return read;
}

export function bundlePemOf(certificates: readonly ReadCertificate[]): string {
  return certificates.map((certificate) => certificate.pem).join("");
}

export function keyMatches(certificate: ReadCertificate, keyPem: string): boolean {
  try {
    return certificate.x509.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
}

/** A CA certificate that signed itself (basicConstraints CA, issuer = subject, own signature). */
export function isSelfSignedCa(certificate: ReadCertificate): boolean {
  return certificate.x509.ca && isSignedBy(certificate, certificate);
}

export function isSignedBy(certificate: ReadCertificate, ca: ReadCertificate): boolean {
  return ca.x509.ca && certificate.x509.checkIssued(ca.x509) && certificate.x509.verify(ca.x509.publicKey);
}

/** The subject's common name (undefined without exactly one). */
export function commonNameOf(certificate: ReadCertificate): string | undefined {
  const names = certificate.x509.subject
    .split("\n")
    .filter((part) => part.startsWith("CN="))
    .map((part) => part.slice("CN=".length));
  return names.length === 1 ? names[0] : undefined;
}

/** The subjectAltName DNS names, in order. */
export function dnsNamesOf(certificate: ReadCertificate): string[] {
  return (certificate.x509.subjectAltName ?? "")
    .split(", ")
    .filter((entry) => entry.startsWith("DNS:"))
    .map((entry) => entry.slice("DNS:".length));
}

/** The extended key usage the certificate was issued for, as the issuer names it. */
export function usageOf(certificate: ReadCertificate): "serverAuth" | "clientAuth" | undefined {
  const usages = certificate.x509.keyUsage ?? [];
  if (usages.length !== 1) return undefined;
  if (usages[0] === SERVER_AUTH_OID) return "serverAuth";
  if (usages[0] === CLIENT_AUTH_OID) return "clientAuth";
  return undefined;
}
