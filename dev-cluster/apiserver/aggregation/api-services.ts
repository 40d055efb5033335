import { objectAt, objectsAt, stringAt } from "../builtin/json-read.js";
import type { JsonObject } from "../json.js";
import { nameOf } from "../objects/object-meta.js";
import type { ObjectStore } from "../storage/object-store.js";
import { type BackendTls, decodeCaBundle } from "./backend-tls.js";
import type { FrontProxyCertificates } from "./front-proxy-certificates.js";
import { type ServiceReference, serviceDnsName } from "./service-resolver.js";

export const API_SERVICES = "apiregistration.k8s.io/apiservices";

/** An APIService whose group-version another server (behind a Service) serves. */
export interface AggregatedApiService {
  /** `<version>.<group>` */
  name: string;
  group: string;
  version: string;
  service: ServiceReference;
  /** PEM the backend's serving certificate must chain to; undefined: the system's roots. */
  caBundlePem?: string;
  insecureSkipTLSVerify: boolean;
  groupPriorityMinimum: number;
  versionPriority: number;
  /** Whether status.conditions says Available=True (requests are proxied only then). */
  available: boolean;
}

/** Reads an APIService; undefined for local ones (no `spec.service`), which this server serves itself. */
export function aggregatedApiService(object: JsonObject): AggregatedApiService | undefined {
  const spec = objectAt(object, "spec") ?? {};
  const service = objectAt(spec, "service");
  if (!service) return undefined;
  const caBundlePem = decodeCaBundle(spec.caBundle);
  const available = objectsAt(object, "status", "conditions").some(
    (condition) => condition.type === "Available" && condition.status === "True",
  );
  return {
    name: nameOf(object),
    group: stringAt(spec, "group") ?? "",
    version: stringAt(spec, "version") ?? "",
    service: {
      namespace: stringAt(service, "namespace") ?? "",
      name: stringAt(service, "name") ?? "",
      port: typeof service.port === "number" ? service.port : 443,
    },
    ...(caBundlePem ? { caBundlePem } : {}),
    insecureSkipTLSVerify: spec.insecureSkipTLSVerify === true,
    groupPriorityMinimum: typeof spec.groupPriorityMinimum === "number" ? spec.groupPriorityMinimum : 0,
    versionPriority: typeof spec.versionPriority === "number" ? spec.versionPriority : 0,
    available,
  };
}

/** The TLS an APIService asks for towards its backend, with the front-proxy client certificate. */
export function apiServiceTls(
  apiService: AggregatedApiService,
  frontProxy: FrontProxyCertificates,
): BackendTls {
  return {
    ...(apiService.caBundlePem ? { caPem: apiService.caBundlePem } : {}),
    serverName: serviceDnsName(apiService.service),
    insecureSkipVerify: apiService.insecureSkipTLSVerify,
    clientCertificate: { certPem: frontProxy.clientCertPem, keyPem: frontProxy.clientKeyPem },
  };
}

/**
 * The stored APIServices that point at a Service, kept current from the store's changes, for
 * the proxy, discovery and the availability controller to look up.
 */
export class ApiServiceCatalog {
  readonly #store: ObjectStore;
  #byName: Map<string, AggregatedApiService> | undefined;
  readonly #stopWatching: () => void;
  readonly #listeners = new Set<(name: string) => void>();

  constructor(store: ObjectStore) {
    this.#store = store;
    this.#stopWatching = store.onChange((event) => {
      if (event.resource !== API_SERVICES) return;
      this.#byName = undefined;
      for (const listener of this.#listeners) listener(event.name);
    });
  }

  all(): AggregatedApiService[] {
    return [...this.#index().values()];
  }

  byName(name: string): AggregatedApiService | undefined {
    return this.#index().get(name);
  }

  find(group: string, version: string): AggregatedApiService | undefined {
    return this.#index().get(`${version}.${group}`);
  }

  /** Whether some APIService serves versions of `group` from another server. */
  servesGroup(group: string): boolean {
    return this.all().some((apiService) => apiService.group === group);
  }

  /** Called with the name of each APIService that is written or deleted. */
  onChange(listener: (name: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stop(): void {
    this.#stopWatching();
    this.#listeners.clear();
  }

  #index(): Map<string, AggregatedApiService> {
    if (!this.#byName) {
      this.#byName = new Map();
      for (const object of this.#store.list(API_SERVICES)) {
        const apiService = aggregatedApiService(object);
        if (apiService) this.#byName.set(apiService.name, apiService);
      }
    }
    return this.#byName;
  }
}
