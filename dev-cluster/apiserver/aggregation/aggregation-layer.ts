import type { IncomingMessage } from "node:http";
import type { Logger } from "pino";
import type { UserInfo } from "../auth/authenticator.js";
import type { ObjectService } from "../objects/object-service.js";
import { AggregatedDiscovery } from "./aggregated-discovery.js";
import { AggregationProxy } from "./aggregation-proxy.js";
import { ApiServiceCatalog } from "./api-services.js";
import { publishAuthenticationConfigMap } from "./authentication-config-map.js";
import { ensureAuthenticationReaderRole } from "./authentication-reader-role.js";
import { ApiServiceAvailability } from "./availability-controller.js";
import type { FrontProxyCertificates } from "./front-proxy-certificates.js";
import type { ServiceResolver } from "./service-resolver.js";

export interface AggregationSettings {
  frontProxy: FrontProxyCertificates;
  /** The CA the server's users' client certificates are issued by (published as `client-ca-file`). */
  clientCaPem: string;
  /** How often every APIService's backend is checked again (default 30 s). */
  resyncMs?: number;
}

export interface AggregationLayerDeps {
  service: ObjectService;
  resolver: ServiceResolver;
  log: Logger;
  userOf: (request: IncomingMessage) => UserInfo;
  settings: AggregationSettings;
}

/** The parts of API aggregation the HTTP server hooks in: the proxy and the discovery of aggregated groups. */
export interface AggregationLayer {
  proxy: AggregationProxy;
  discovery: AggregatedDiscovery;
  stop(): void;
}

/**
 * kube-aggregator inside this server: publishes what aggregated API servers need to trust the
 * front proxy (the authentication ConfigMap and the Role to read it), and starts the APIService
 * availability checks that feed the proxy and discovery.
 */
export function startAggregationLayer(deps: AggregationLayerDeps): AggregationLayer {
  const { service, resolver, log, settings } = deps;
  const aggregationLog = log.child({ controller: "apiservice-availability" });
  try {
    publishAuthenticationConfigMap(service, {
      clientCaPem: settings.clientCaPem,
      requestHeaderCaPem: settings.frontProxy.caCertPem,
    });
    ensureAuthenticationReaderRole(service);
  } catch (error) {
    log.error({ err: error }, "cannot publish the extension-apiserver-authentication ConfigMap or its Role");
  }
  const catalog = new ApiServiceCatalog(service.store);
  const discovery = new AggregatedDiscovery(catalog, service.registry);
  const availability = new ApiServiceAvailability({
    service,
    catalog,
    resolver,
    discovery,
    frontProxy: settings.frontProxy,
    log: aggregationLog,
    ...(settings.resyncMs ? { resyncMs: settings.resyncMs } : {}),
  });
  const proxy = new AggregationProxy({
    catalog,
    resolver,
    discovery,
    frontProxy: settings.frontProxy,
    userOf: deps.userOf,
  });
  return {
    proxy,
    discovery,
    stop() {
      availability.stop();
      catalog.stop();
      proxy.close();
    },
  };
}
