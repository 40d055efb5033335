/**
 * The dev API server's certificates, in days from now: its CA, its serving certificate and the
 * client certificates kube-apiserver reads identities from. Issued by runtime/tls/x509.ts.
 */
import {
  type CertificateAndKey,
  type CertificateValidity,
  createCertificateAuthority as createCa,
  issueCertificate,
} from "../../../runtime/tls/x509.js";

export type { CertificateAndKey } from "../../../runtime/tls/x509.js";

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** Validity from an hour ago (tolerating clock skew) for `days` days. */
function validity(days: number): CertificateValidity {
  const now = Date.now();
  return { notBefore: now - hourMs, notAfter: now + days * dayMs };
}

/** A self-signed ECDSA P-256 CA certificate that may sign leaf certificates only. */
export function createCertificateAuthority(commonName: string, days: number): Promise<CertificateAndKey> {
  return createCa(commonName, validity(days));
}

/** A TLS server certificate for the given DNS names and IP addresses (subjectAltName). */
export function issueServerCertificate(
  ca: CertificateAndKey,
  names: { hosts: readonly string[]; ips: readonly string[] },
  days: number,
): Promise<CertificateAndKey> {
  return issueCertificate(
    ca,
    {
      commonName: names.hosts[0] ?? names.ips[0] ?? "apiserver",
      usage: "serverAuth",
      dnsNames: names.hosts,
      ipAddresses: names.ips,
    },
    validity(days),
  );
}

/**
 * A TLS client certificate in the form kube-apiserver reads identities from: the common name is
 * the user name, each organization a group.
 */
export function issueClientCertificate(
  ca: CertificateAndKey,
  commonName: string,
  organizations: readonly string[],
  days = 365,
): Promise<CertificateAndKey> {
  return issueCertificate(ca, { commonName, organizations, usage: "clientAuth" }, validity(days));
}
