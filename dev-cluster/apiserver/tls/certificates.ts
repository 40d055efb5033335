import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { isIP } from "node:net";
import { join } from "node:path";
import { writeSecretFile } from "./secret-file.js";
import { type CertificateAndKey, createCertificateAuthority, issueServerCertificate } from "./x509-issuer.js";

export { type CertificateAndKey, issueClientCertificate } from "./x509-issuer.js";

export interface ServingCertificates {
  caCertPem: string;
  certPem: string;
  keyPem: string;
}

export interface ServingNames {
  /** DNS names the server is reached by; `localhost` is always added. IP literals are moved to `ips`. */
  hosts: string[];
  /** IP addresses the server is reached by; `127.0.0.1` and `::1` are always added. */
  ips: string[];
}

const caDays = 3650;
const serverDays = 365;
/** Certificates closer than this to their end are replaced at start-up. */
const renewBeforeMs = 30 * 24 * 3_600_000;

function pkiPaths(dataDir: string) {
  const pki = join(dataDir, "pki");
  return {
    caCert: join(pki, "ca.crt"),
    caKey: join(pki, "ca.key"),
    serverCert: join(pki, "apiserver.crt"),
    serverKey: join(pki, "apiserver.key"),
  };
}

function normalizeNames(names: ServingNames): ServingNames {
  const hosts = new Set(["localhost"]);
  const ips = new Set(["127.0.0.1", "::1"]);
  for (const host of names.hosts) {
    if (isIP(host)) ips.add(host);
    else if (/^[a-zA-Z0-9*]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/.test(host)) hosts.add(host.toLowerCase());
    else throw new Error(`cannot put "${host}" in a server certificate: not a DNS name`);
  }
  for (const ip of names.ips) {
    if (!isIP(ip)) throw new Error(`cannot put "${ip}" in a server certificate: not an IP address`);
    ips.add(ip);
  }
  return { hosts: [...hosts], ips: [...ips] };
}

/** Reads a certificate and key pair; undefined when either file is missing. */
export async function readPair(certPath: string, keyPath: string): Promise<CertificateAndKey | undefined> {
  try {
    return { certPem: await readFile(certPath, "utf8"), keyPem: await readFile(keyPath, "utf8") };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read ${certPath} or ${keyPath}`, { cause: error });
  }
}

/** True when the pair parses, the key belongs to the certificate, and it is not about to expire. */
export function usablePair(pair: CertificateAndKey): X509Certificate | undefined {
  try {
    const certificate = new X509Certificate(pair.certPem);
    if (!certificate.checkPrivateKey(createPrivateKey(pair.keyPem))) return undefined;
    if (Date.parse(certificate.validTo) - Date.now() < renewBeforeMs) return undefined;
    return certificate;
  } catch {
    return undefined; // a damaged file is replaced like an expired one
  }
}

function coversNames(certificate: X509Certificate, names: ServingNames): boolean {
  return (
    names.hosts.every((host) => certificate.checkHost(host, { subject: "never" }) !== undefined) &&
    names.ips.every((ip) => certificate.checkIP(ip) !== undefined)
  );
}

export async function writePair(pair: CertificateAndKey, certPath: string, keyPath: string): Promise<void> {
  await writeSecretFile(keyPath, pair.keyPem, 0o600);
  await writeSecretFile(certPath, pair.certPem, 0o644);
}

async function ensureCertificateAuthority(paths: ReturnType<typeof pkiPaths>): Promise<CertificateAndKey> {
  const existing = await readPair(paths.caCert, paths.caKey);
  const certificate = existing && usablePair(existing);
  if (existing && certificate?.ca) return existing;
  const created = await createCertificateAuthority("dev-cluster-ca", caDays);
  await writePair(created, paths.caCert, paths.caKey);
  return created;
}

/**
 * The CA and the API server's serving certificate under `<dataDir>/pki/`, generated on first use
 * and reused afterwards. The server certificate is re-issued when it does not cover the requested
 * names, is not signed by the CA, or is close to expiry; the CA is replaced only when unusable
 * (then kubeconfigs holding the old CA must be rewritten).
 */
export async function ensureServingCertificates(
  dataDir: string,
  opts: ServingNames,
): Promise<ServingCertificates> {
  const names = normalizeNames(opts);
  const paths = pkiPaths(dataDir);
  const ca = await ensureCertificateAuthority(paths);
  const caCertificate = new X509Certificate(ca.certPem);
  const existing = await readPair(paths.serverCert, paths.serverKey);
  const certificate = existing && usablePair(existing);
  const reusable = certificate?.verify(caCertificate.publicKey) === true && coversNames(certificate, names);
  if (existing && reusable) return { caCertPem: ca.certPem, ...existing };
  const issued = await issueServerCertificate(ca, names, serverDays);
  await writePair(issued, paths.serverCert, paths.serverKey);
  return { caCertPem: ca.certPem, ...issued };
}

/**
 * The CA that `ensureServingCertificates` created, with its key: for issuing client certificates
 * (`issueClientCertificate`) after start-up.
 */
export async function loadCertificateAuthority(dataDir: string): Promise<CertificateAndKey> {
  const paths = pkiPaths(dataDir);
  const ca = await readPair(paths.caCert, paths.caKey);
  if (!ca)
    throw new Error(
      `no certificate authority in ${join(dataDir, "pki")}: run ensureServingCertificates first`,
    );
  return ca;
}
