import type { Logger } from "pino";
import { wireTime } from "../../../runtime/clock/wire-time.js";
import { objectAt, objectsAt } from "../builtin/json-read.js";
import type { JsonObject } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ResourceType } from "../resource-type.js";
import type { AggregatedDiscovery } from "./aggregated-discovery.js";
import {
  type AggregatedApiService,
  type ApiServiceCatalog,
  aggregatedApiService,
  apiServiceTls,
} from "./api-services.js";
import { probeGroupVersion } from "./discovery-probe.js";
import type { FrontProxyCertificates } from "./front-proxy-certificates.js";
import { ServiceResolutionError, type ServiceResolver } from "./service-resolver.js";

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

interface Availability {
  status: "True" | "False";
  reason: string;
  message: string;
}

const RETRY_MS = 1000;
const SERVICES = "/services";
const ENDPOINTS = "/endpoints";

/**
 * kube-aggregator's AvailableConditionController, with its discovery manager folded in: for each
 * APIService, `status.conditions` Available True (`Passed`, or `Local`) or False
 * (`ServiceNotFound`, `ServicePortError`, `EndpointsNotFound`, `MissingEndpoints`,
 * `FailedDiscoveryCheck`), from the Service, its Endpoints and a request to the backend's
 * `/apis/<group>/<version>`, whose answer becomes the group-version's discovery. Checked when the
 * APIService, its Service or its Endpoints change, and every `resyncMs`.
 */
export class ApiServiceAvailability {
  readonly #deps: AvailabilityDeps;
  readonly #type: ResourceType;
  readonly #pending = new Set<string>();
  readonly #stops: (() => void)[] = [];
  #draining = false;
  #stopped = false;

  constructor(deps: AvailabilityDeps) {
    this.#deps = deps;
    const type = deps.service.registry.find("apiregistration.k8s.io", "v1", "apiservices");
    if (!type) throw new Error("the apiservices resource is not registered");
    this.#type = type;
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
          await this.#reconcile(name);
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

  async #reconcile(name: string): Promise<void> {
    const stored = this.#deps.service.find(this.#type, "", name);
    if (!stored) {
      this.#deps.discovery.forget(name);
      return;
    }
    const apiService = aggregatedApiService(stored);
    const availability: Availability = apiService
      ? await this.#check(apiService)
      : { status: "True", reason: "Local", message: "Local APIServices are always available" };
    // The probe took time: write on top of the object as it is now.
    const current = this.#deps.service.find(this.#type, "", name);
    if (current) this.#writeCondition(current, availability);
  }

  async #check(apiService: AggregatedApiService): Promise<Availability> {
    let endpoint: ReturnType<ServiceResolver["resolve"]>;
    try {
      endpoint = this.#deps.resolver.resolve(apiService.service);
    } catch (error) {
      if (!(error instanceof ServiceResolutionError)) throw error;
      this.#deps.discovery.markStale(apiService.name);
      return { status: "False", reason: error.reason, message: error.message };
    }
    const path = `/apis/${apiService.group}/${apiService.version}`;
    try {
      const resourceList = await probeGroupVersion(
        endpoint,
        apiServiceTls(apiService, this.#deps.frontProxy),
        path,
      );
      this.#deps.discovery.record(apiService.name, resourceList);
      return { status: "True", reason: "Passed", message: "all checks passed" };
    } catch (error) {
      this.#deps.discovery.markStale(apiService.name);
      return { status: "False", reason: "FailedDiscoveryCheck", message: (error as Error).message };
    }
  }

  /** Writes the Available condition to the status subresource when it changed (lastTransitionTime only on a flip). */
  #writeCondition(object: JsonObject, availability: Availability): void {
    const conditions = objectsAt(object, "status", "conditions");
    const previous = conditions.find((condition) => condition.type === "Available");
    if (
      previous?.status === availability.status &&
      previous.reason === availability.reason &&
      previous.message === availability.message
    ) {
      return;
    }
    const lastTransitionTime =
      previous?.status === availability.status && typeof previous.lastTransitionTime === "string"
        ? previous.lastTransitionTime
        : wireTime(this.#deps.service.now().getTime());
    const condition: JsonObject = { type: "Available", ...availability, lastTransitionTime };
    const status = objectAt(object, "status") ?? {};
    const updated: JsonObject = {
      ...object,
      status: { ...status, conditions: [...conditions.filter((c) => c.type !== "Available"), condition] },
    };
    this.#deps.service.update(this.#type, "", String(objectAt(object, "metadata")?.name ?? ""), updated, {
      fieldManager: "kube-apiserver",
      subresource: "status",
    });
  }
}
