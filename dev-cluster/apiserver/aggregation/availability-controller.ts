import type { Logger } from "pino";
import { objectAt } from "../builtin/json-read.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ResourceType } from "../resource-type.js";
import type { AggregatedDiscovery } from "./aggregated-discovery.js";
import { ApiServiceReconciler } from "./api-service-reconciler.js";
import type { ApiServiceCatalog } from "./api-services.js";
import type { FrontProxyCertificates } from "./front-proxy-certificates.js";
import type { ServiceResolver } from "./service-resolver.js";

export interface AvailabilityDeps {
  service: ObjectService;
  catalog: ApiServiceCatalog;
  resolver: ServiceResolver;
  discovery: AggregatedDiscovery;
  frontProxy: FrontProxyCertificates;
  log: Logger;
  /** How often every APIService is checked again (kube-aggregator: 30 s). */
  resyncMs?: number;
}

const RETRY_MS = 1000;
const SERVICES = "/services";
const ENDPOINTS = "/endpoints";

/**
 * kube-aggregator's AvailableConditionController, with its discovery manager folded in: the
 * wiring of the ApiServiceReconciler (Available condition and discovery of one APIService). An
 * APIService is checked when it, its Service or its Endpoints change, and every `resyncMs`; one
 * at a time, retried after a second when the check fails.
 */
export class ApiServiceAvailability {
  readonly #deps: AvailabilityDeps;
  readonly #type: ResourceType;
  readonly #reconciler: ApiServiceReconciler;
  readonly #pending = new Set<string>();
  readonly #stops: (() => void)[] = [];
  #draining = false;
  #stopped = false;

  constructor(deps: AvailabilityDeps) {
    this.#deps = deps;
    const type = deps.service.registry.find("apiregistration.k8s.io", "v1", "apiservices");
    if (!type) throw new Error("the apiservices resource is not registered");
    this.#type = type;
    this.#reconciler = new ApiServiceReconciler({
      service: deps.service,
      type,
      resolver: deps.resolver,
      discovery: deps.discovery,
      frontProxy: deps.frontProxy,
    });
    this.#stops.push(deps.catalog.onChange((name) => this.#enqueue(name)));
    this.#stops.push(
      deps.service.store.onChange((event) => {
        if (event.resource !== SERVICES && event.resource !== ENDPOINTS) return;
        for (const apiService of deps.catalog.all()) {
          const { namespace, name } = apiService.service;
          if (namespace === event.namespace && name === event.name) this.#enqueue(apiService.name);
        }
      }),
    );
    const resync = setInterval(() => this.#enqueueAll(), deps.resyncMs ?? 30_000);
    resync.unref();
    this.#stops.push(() => clearInterval(resync));
    this.#enqueueAll();
  }

  stop(): void {
    this.#stopped = true;
    for (const stop of this.#stops) stop();
  }

  #enqueueAll(): void {
    for (const object of this.#deps.service.list(this.#type, undefined).items) {
      this.#enqueue(String(objectAt(object, "metadata")?.name ?? ""));
    }
  }

  #enqueue(name: string): void {
    if (this.#stopped || name === "") return;
    this.#pending.add(name);
    if (!this.#draining) void this.#drain();
  }

  /** One APIService at a time: probes are few and short, and ordering keeps status writes simple. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (!this.#stopped && this.#pending.size > 0) {
        const [name] = this.#pending;
        if (name === undefined) break;
        this.#pending.delete(name);
        try {
          await this.#reconciler.reconcile(name);
        } catch (error) {
          this.#deps.log.warn(
            { err: error, apiService: name },
            "cannot update the APIService's availability",
          );
          setTimeout(() => this.#enqueue(name), RETRY_MS).unref();
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}
