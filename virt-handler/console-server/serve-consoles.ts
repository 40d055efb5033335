import type { Logger } from "pino";
import type { Connection } from "../../libvirt/index.js";
import type { Manager, SharedInformer } from "../../runtime/index.js";
import { SecretTlsSource } from "../../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { withTlsSecret } from "../../runtime/tls/with-tls-secret.js";
import type { VmiDomainFactory } from "../domain/vmi-domain-factory.js";
import type { Vmi } from "../kinds.js";
import { ConsoleServer } from "./console-server.js";
import { VmiDomainLocator } from "./vmi-domain-locator.js";

export interface ServeConsolesOptions {
  readonly host: string;
  /** 0: any free one. */
  readonly port: number;
  /** Between WebSocket pings (default 15 s): a test seam. */
  readonly pingIntervalMs?: number;
  /** Where the serving certificate's Secret lives (the KubeVirt CR's namespace). */
  readonly namespace: string;
  readonly nodeName: string;
  readonly vmis: SharedInformer<Vmi>;
  readonly connection: Connection;
  readonly factory: VmiDomainFactory;
  readonly log: Logger;
}

/**
 * virt-api's way to consoles, VNC and pause: the server runs beside the controllers and starts
 * serving once its certificate's Secret exists. Neither it nor the Secret's watch is in the
 * manager's cache, so readiness never waits for them (nor fails for want of RBAC on Secrets).
 */
export function serveConsoles(manager: Manager, options: ServeConsolesOptions): ConsoleServer {
  const { host, port, pingIntervalMs, log, nodeName, vmis, connection, factory } = options;
  const secret = { namespace: options.namespace, name: CERTIFICATE_SECRETS.handlerServer };
  const tls = new SecretTlsSource(manager.client, { ...secret, log });
  const server = new ConsoleServer({
    ...{ host, port, tls, log, ...(pingIntervalMs ? { pingIntervalMs } : {}) },
    tlsOrigin: `${secret.namespace}/${secret.name}`,
    domains: new VmiDomainLocator({ nodeName, vmis, connection, factory }),
  });
  manager.add(withTlsSecret(server, tls));
  return server;
}
