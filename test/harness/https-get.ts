// Test support: one GET over HTTPS on a connection of its own (so each call sees the certificate
// served now), trusting only the CA given, and what the server presented.
import { type Agent, request } from "node:https";
import type { TLSSocket } from "node:tls";

export interface HttpsGetResult {
  readonly status: number;
  readonly body: string;
  /** SHA-256 fingerprint of the certificate the server presented. */
  readonly fingerprint256: string;
}

export interface HttpsGetOptions {
  /** The CA bundle (PEM) the server's certificate must chain to. */
  readonly ca: string;
  /**
   * Check the certificate's names against the URL's host (default true). False verifies the
   * chain only, as a scraper does that dials pods by IP with a certificate named for a Service.
   */
  readonly checkHostName?: boolean;
  readonly timeoutMs?: number;
  /**
   * A keep-alive agent for tests that poll (a TLS handshake per look costs CPU a busy machine
   * lacks); without one, every call gets a connection, and so the certificate served now.
   */
  readonly agent?: Agent;
}

export function httpsGet(url: string, options: HttpsGetOptions): Promise<HttpsGetResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca: options.ca,
        agent: options.agent ?? false,
        ...(options.checkHostName === false ? { checkServerIdentity: () => undefined } : {}),
      },
      (res) => {
        const fingerprint256 = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            fingerprint256,
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
    req.end();
  });
}
