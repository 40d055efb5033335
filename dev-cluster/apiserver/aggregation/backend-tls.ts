import { isIP } from "node:net";
import type { ConnectionOptions } from "node:tls";

/** How the API server checks (and authenticates to) a server it calls: an aggregated API server or a webhook. */
export interface BackendTls {
  /** PEM bundle the server's certificate must chain to; undefined: the system's roots. */
  caPem?: string;
  /** The name the server's certificate must carry (and the SNI sent), e.g. `<service>.<namespace>.svc`. */
  serverName: string;
  /** APIService `insecureSkipTLSVerify`: no check of the server's certificate at all. */
  insecureSkipVerify?: boolean;
  /** The client certificate presented (the front-proxy certificate towards aggregated servers). */
  clientCertificate?: { certPem: string; keyPem: string };
}

/**
 * Node TLS options for dialling an address while checking the certificate against a name: the
 * name goes in SNI and the identity check (an IP literal cannot be an SNI name, so it is checked
 * as the host instead).
 */
export function tlsConnectionOptions(tls: BackendTls): ConnectionOptions {
  const options: ConnectionOptions = { rejectUnauthorized: tls.insecureSkipVerify !== true };
  if (tls.caPem) options.ca = tls.caPem;
  if (isIP(tls.serverName) === 0) options.servername = tls.serverName;
  if (tls.clientCertificate) {
    options.cert = tls.clientCertificate.certPem;
    options.key = tls.clientCertificate.keyPem;
  }
  return options;
}

/** A caBundle is base64 of PEM in the API's JSON; undefined when absent or empty. */
export function decodeCaBundle(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return Buffer.from(value, "base64").toString("utf8");
}
