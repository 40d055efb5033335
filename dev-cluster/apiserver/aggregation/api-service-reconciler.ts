import { wireTime } from "../../../runtime/clock/wire-time.js";
import type { ReconcileResult } from "../../../runtime/index.js";
import { objectAt, objectsAt } from "../builtin/json-read.js";
import type { JsonObject } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ResourceType } from "../resource-type.js";
import type { AggregatedDiscovery } from "./aggregated-discovery.js";
import { type AggregatedApiService, aggregatedApiService, apiServiceTls } from "./api-services.js";
import { probeGroupVersion } from "./discovery-probe.js";
import type { FrontProxyCertificates } from "./front-proxy-certificates.js";
import { ServiceResolutionError, type ServiceResolver } from "./service-resolver.js";

export interface ApiServiceReconcilerDeps {
  service: ObjectService;
  /** The apiservices resource, as registered. */
  type: ResourceType;
  resolver: ServiceResolver;
  discovery: AggregatedDiscovery;
  frontProxy: FrontProxyCertificates;
}

interface Availability {
  status: "True" | "False";
  reason: string;
  message: string;
}

/**
 * One APIService's availability, from the store: Available True (`Passed`, or `Local`) or False
 * (`ServiceNotFound`, `ServicePortError`, `EndpointsNotFound`, `MissingEndpoints`,
 * `FailedDiscoveryCheck`), from the Service, its Endpoints and a request to the backend's
 * `/apis/<group>/<version>`, whose answer becomes the group-version's discovery.
 */
export class ApiServiceReconciler {
  readonly #deps: ApiServiceReconcilerDeps;

  constructor(deps: ApiServiceReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(name: string): Promise<ReconcileResult> {
    const stored = this.#deps.service.find(this.#deps.type, "", name);
    if (!stored) {
      this.#deps.discovery.forget(name);
      return {};
    }
    const apiService = aggregatedApiService(stored);
    const availability: Availability = apiService
      ? await this.#check(apiService)
      : { status: "True", reason: "Local", message: "Local APIServices are always available" };
    // The probe took time: write on top of the object as it is now.
    const current = this.#deps.service.find(this.#deps.type, "", name);
    if (current) this.#writeCondition(current, availability);
    return {};
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
    this.#deps.service.update(
      this.#deps.type,
      "",
      String(objectAt(object, "metadata")?.name ?? ""),
      updated,
      {
        fieldManager: "kube-apiserver",
        subresource: "status",
      },
    );
  }
}
