import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import { ensureFrontProxyCertificates } from "./aggregation/front-proxy-certificates.js";
import { ensureTokenFile, loadTokenFile } from "./auth/tokens.js";
import { writeKubeconfig } from "./kubeconfig.js";
import type { PodLogSource } from "./pod-logs.js";
import { type RunningApiServer, startApiServer } from "./server.js";
import { ensureSigningKeyFile } from "./serviceaccounts/signing-key.js";
import { DEFAULT_SERVICE_CIDR, kubernetesServiceIp } from "./services/address-ranges.js";
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
  /** Container logs for `kubectl logs` (the node agent's). */
  podLogs?: PodLogSource;
  /** More addresses the serving certificate must cover (e.g. the node bridge address pods use). */
  servingIps?: string[];
  /** More DNS names the serving certificate must cover. */
  servingHosts?: string[];
  /** The address the `kubernetes` Service's endpoints hold (default: host). */
  advertiseAddress?: string;
  /** The port the `kubernetes` Service's endpoints hold (default: the listening port). */
  advertisePort?: number;
  /** IPv4 range of Service cluster IPs (default 10.96.0.0/12). */
  serviceCidr?: string;
  /** How often APIServices' backends are checked again (default 30 s; tests shorten it). */
  apiServiceResyncMs?: number;
}

export interface DevApiServer extends RunningApiServer {
  /** The admin's bearer token (system:masters). */
  adminToken: string;
  caCertPem: string;
}

/**
 * The API server as `dev-cluster up` and the tests run it: a data directory with a CA and
 * serving certificate, a static token file with an admin token, the service-account signing
 * key, SQLite storage, and a kubeconfig written only when the server is ready.
 */
export async function startDevApiServer(options: DevApiServerOptions): Promise<DevApiServer> {
  const host = options.host ?? "127.0.0.1";
  const serviceCidr = options.serviceCidr ?? DEFAULT_SERVICE_CIDR;
  await mkdir(options.dataDir, { recursive: true });
  const certificates = await ensureServingCertificates(
    options.dataDir,
    servingNames(options, host, serviceCidr),
  );
  const signingKeyPem = await ensureSigningKeyFile(options.dataDir);
  const frontProxy = await ensureFrontProxyCertificates(options.dataDir);
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
    serviceAccountTokens: { signingKeyPem },
    serviceCidr,
    aggregation: {
      frontProxy,
      clientCaPem: certificates.caCertPem,
      ...(options.apiServiceResyncMs ? { resyncMs: options.apiServiceResyncMs } : {}),
    },
    ...(options.historySize ? { historySize: options.historySize } : {}),
    ...(options.podLogs ? { podLogs: options.podLogs } : {}),
    ...(options.advertiseAddress ? { advertiseAddress: options.advertiseAddress } : {}),
    ...(options.advertisePort ? { advertisePort: options.advertisePort } : {}),
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

/**
 * What the serving certificate covers: localhost, the names and address of the `kubernetes`
 * Service (what in-cluster clients are told), the listening and advertised addresses, and
 * whatever the caller adds.
 */
function servingNames(options: DevApiServerOptions, host: string, serviceCidr: string) {
  const wildcard = host === "0.0.0.0" || host === "::";
  const ips = [kubernetesServiceIp(serviceCidr), ...(options.servingIps ?? [])];
  if (!wildcard) ips.push(host);
  if (options.advertiseAddress) ips.push(options.advertiseAddress);
  const serviceNames = ["kubernetes", "kubernetes.default", "kubernetes.default.svc"];
  return {
    hosts: [
      "localhost",
      ...serviceNames,
      "kubernetes.default.svc.cluster.local",
      ...(options.servingHosts ?? []),
    ],
    ips,
  };
}
