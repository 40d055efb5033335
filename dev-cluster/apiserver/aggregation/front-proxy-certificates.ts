import { X509Certificate } from "node:crypto";
import { join } from "node:path";
import { readPair, usablePair, writePair } from "../tls/certificates.js";
import { createCertificateAuthority, issueClientCertificate } from "../tls/x509-issuer.js";

/**
 * What the API server authenticates to aggregated API servers with, as kube-apiserver's
 * `--requestheader-client-ca-file` and `--proxy-client-cert-file`: a CA of its own (aggregated
 * servers trust X-Remote-* headers only from certificates it signed) and a client certificate.
 */
export interface FrontProxyCertificates {
  caCertPem: string;
  clientCertPem: string;
  clientKeyPem: string;
}

/** The common name aggregated servers expect (`requestheader-allowed-names`). */
export const FRONT_PROXY_CLIENT_NAME = "front-proxy-client";

const caDays = 3650;
const clientDays = 365;

/** kubeadm's file names, under `<dataDir>/pki/`. */
function frontProxyPaths(dataDir: string) {
  const pki = join(dataDir, "pki");
  return {
    caCert: join(pki, "front-proxy-ca.crt"),
    caKey: join(pki, "front-proxy-ca.key"),
    clientCert: join(pki, "front-proxy-client.crt"),
    clientKey: join(pki, "front-proxy-client.key"),
  };
}

/**
 * The front-proxy CA and client certificate, generated on first use and reused afterwards; the
 * client certificate is re-issued when it is close to expiry or no longer signed by the CA.
 */
export async function ensureFrontProxyCertificates(dataDir: string): Promise<FrontProxyCertificates> {
  const paths = frontProxyPaths(dataDir);
  let ca = await readPair(paths.caCert, paths.caKey);
  if (!ca || !usablePair(ca)?.ca) {
    ca = await createCertificateAuthority("front-proxy-ca", caDays);
    await writePair(ca, paths.caCert, paths.caKey);
  }
  const caCertificate = new X509Certificate(ca.certPem);
  let client = await readPair(paths.clientCert, paths.clientKey);
  const usable = client && usablePair(client);
  if (
    !client ||
    !usable?.verify(caCertificate.publicKey) ||
    !usable.subject.includes(FRONT_PROXY_CLIENT_NAME)
  ) {
    client = await issueClientCertificate(ca, FRONT_PROXY_CLIENT_NAME, [], clientDays);
    await writePair(client, paths.clientCert, paths.clientKey);
  }
  return { caCertPem: ca.certPem, clientCertPem: client.certPem, clientKeyPem: client.keyPem };
}
