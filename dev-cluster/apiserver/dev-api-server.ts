import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import { ensureTokenFile, loadTokenFile } from "./auth/tokens.js";
import { writeKubeconfig } from "./kubeconfig.js";
import { type RunningApiServer, startApiServer } from "./server.js";
import { ensureServingCertificates } from "./tls/certificates.js";

export interface DevApiServerOptions {
  /** Where the store, certificates and token file live. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Written once the server answers; undefined writes none. */
  kubeconfigPath?: string;
  /** Keep objects in memory only (fast tests); certificates and tokens still go to dataDir. */
  inMemory?: boolean;
  host?: string;
  log: Logger;
  /** How many recent changes watches can resume from. */
  historySize?: number;
}

export interface DevApiServer extends RunningApiServer {
  /** The admin's bearer token (system:masters). */
  adminToken: string;
  caCertPem: string;
}

/**
 * The API server as `dev-cluster up` and the tests run it: a data directory with a CA and
 * serving certificate, a static token file with an admin token, SQLite storage, and a
 * kubeconfig written only when the server is ready.
 */
export async function startDevApiServer(options: DevApiServerOptions): Promise<DevApiServer> {
  const host = options.host ?? "127.0.0.1";
  await mkdir(options.dataDir, { recursive: true });
  const certificates = await ensureServingCertificates(options.dataDir, {
    hosts: ["localhost"],
    ips: [host],
  });
  const tokenFile = join(options.dataDir, "tokens.csv");
  const adminToken = await ensureTokenFile(tokenFile);
  const authenticator = await loadTokenFile(tokenFile);
  const server = await startApiServer({
    storagePath: options.inMemory ? ":memory:" : join(options.dataDir, "store.sqlite"),
    host,
    port: options.port,
    tls: { certPem: certificates.certPem, keyPem: certificates.keyPem },
    authenticator,
    log: options.log,
    ...(options.historySize ? { historySize: options.historySize } : {}),
  });
  if (options.kubeconfigPath) {
    await writeKubeconfig(options.kubeconfigPath, {
      server: server.url,
      caCertPem: certificates.caCertPem,
      token: adminToken,
    });
  }
  return { ...server, adminToken, caCertPem: certificates.caCertPem };
}
