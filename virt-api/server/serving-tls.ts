/**
 * virt-api's TLS: its serving certificate (from the virt-api Secret) and, for client
 * certificates, the front-proxy CA (from the request-header settings). Either may change while
 * running; the server's secure context is replaced, so new connections use the new material
 * and established ones are not cut.
 */
import type { Server as HttpsServer } from "node:https";
import type { SecureContextOptions, TlsOptions } from "node:tls";
import type { Logger } from "pino";
import type { TlsMaterial, TlsMaterialSource } from "../../runtime/tls/tls-material.js";
import type { RequestHeaderConfig } from "../auth/request-header-config.js";

/** Where the two halves come from (the request-header source, or anything that says the same). */
export interface ServingTlsSources {
  readonly serving: TlsMaterialSource;
  readonly requestHeader: {
    current(): RequestHeaderConfig | undefined;
    onChange(listener: (config: RequestHeaderConfig | undefined) => void): () => void;
  };
}

/**
 * The server's TLS options. Client certificates are asked for but not required: webhooks and
 * probes come without one, and subresource requests are refused per request when the
 * certificate did not verify. Without a published front-proxy CA, `ca` falls back to the
 * serving CA rather than Node's public roots, so nothing a public CA signed verifies.
 */
export function servingTlsOptions(
  material: TlsMaterial,
  requestHeader: RequestHeaderConfig | undefined,
): TlsOptions {
  const context: SecureContextOptions = {
    cert: material.certPem,
    key: material.keyPem,
    ca: requestHeader?.caPem ?? material.caPem,
    minVersion: "TLSv1.2",
  };
  return { ...context, requestCert: true, rejectUnauthorized: false };
}

/** Follows both sources into `server`'s secure context; returns a function that stops following. */
export function followServingTls(server: HttpsServer, sources: ServingTlsSources, log: Logger): () => void {
  const apply = (): void => {
    const material = sources.serving.current();
    // A deleted Secret leaves the last certificate in place: serving it beats refusing every handshake.
    if (!material) return;
    try {
      server.setSecureContext(servingTlsOptions(material, sources.requestHeader.current()));
      log.info("TLS material changed: new connections use it");
    } catch (error) {
      log.error({ err: error }, "the new TLS material was refused: keeping the previous one");
    }
  };
  const stopServing = sources.serving.onChange(apply);
  const stopRequestHeader = sources.requestHeader.onChange(apply);
  return () => {
    stopServing();
    stopRequestHeader();
  };
}
