import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";

/** A Service and one of its ports, as an APIService or a webhook's clientConfig names it. */
export interface ServiceReference {
  namespace: string;
  name: string;
  /** The Service's port (not the pod's). */
  port: number;
}

/** Where a request for a Service goes: a ready endpoint's address and port. */
export interface ResolvedEndpoint {
  host: string;
  port: number;
}

/** What kube-aggregator's availability check reports when a Service cannot be reached. */
export type ResolutionFailure =
  | "ServiceNotFound"
  | "ServicePortError"
  | "EndpointsNotFound"
  | "MissingEndpoints";

/** A Service that resolves to no endpoint; `reason` is the APIService condition reason. */
export class ServiceResolutionError extends Error {
  readonly reason: ResolutionFailure;

  constructor(reason: ResolutionFailure, message: string) {
    super(message);
    this.name = "ServiceResolutionError";
    this.reason = reason;
  }
}

/** Service types whose endpoints the API server dials itself (apiserver's ResolveEndpoint). */
const ROUTABLE_TYPES = new Set(["ClusterIP", "NodePort", "LoadBalancer"]);

function objectsAt(object: JsonObject | undefined, field: string): JsonObject[] {
  const value: JsonValue | undefined = object?.[field];
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

function specOf(object: JsonObject): JsonObject {
  return isJsonObject(object.spec) ? object.spec : {};
}

function pick<T>(items: readonly T[]): T | undefined {
  return items[Math.floor(Math.random() * items.length)];
}

/**
 * Resolves a Service to one ready endpoint, as kube-apiserver does with aggregator routing
 * (`--enable-aggregator-routing`): the Service's port gives the port name, and a random ready
 * address of the Service's Endpoints with a port of that name is dialled directly. There is no
 * kube-proxy here, so cluster IPs are never used. A Service without a selector resolves to the
 * Endpoints its owner writes (e.g. one naming 127.0.0.1 for a server in the same host).
 */
export class ServiceResolver {
  readonly #service: ObjectService;

  constructor(service: ObjectService) {
    this.#service = service;
  }

  resolve(reference: ServiceReference): ResolvedEndpoint {
    const { namespace, name, port } = reference;
    const service = this.#find("services", namespace, name);
    if (!service) {
      throw new ServiceResolutionError("ServiceNotFound", `service/${name} in "${namespace}" is not present`);
    }
    const type = typeof specOf(service).type === "string" ? String(specOf(service).type) : "ClusterIP";
    if (!ROUTABLE_TYPES.has(type)) {
      throw new ServiceResolutionError("ServicePortError", `unsupported service type "${type}"`);
    }
    const servicePort = objectsAt(specOf(service), "ports").find((p) => p.port === port);
    if (!servicePort) {
      throw new ServiceResolutionError(
        "ServicePortError",
        `service/${name} in "${namespace}" is not listening on port ${port}`,
      );
    }
    const portName = typeof servicePort.name === "string" ? servicePort.name : "";
    const endpoints = this.#find("endpoints", namespace, name);
    if (!endpoints) {
      throw new ServiceResolutionError(
        "EndpointsNotFound",
        `cannot find endpoints for service/${name} in "${namespace}"`,
      );
    }
    const candidates: ResolvedEndpoint[] = [];
    for (const subset of objectsAt(endpoints, "subsets")) {
      const endpointPort = objectsAt(subset, "ports").find((p) => (p.name ?? "") === portName);
      if (typeof endpointPort?.port !== "number") continue;
      for (const address of objectsAt(subset, "addresses")) {
        if (typeof address.ip === "string") candidates.push({ host: address.ip, port: endpointPort.port });
      }
    }
    const chosen = pick(candidates);
    if (!chosen) {
      throw new ServiceResolutionError(
        "MissingEndpoints",
        `endpoints for service/${name} in "${namespace}" have no addresses with port name "${portName}"`,
      );
    }
    return chosen;
  }

  #find(plural: string, namespace: string, name: string): JsonObject | undefined {
    const type = this.#service.registry.find("", "v1", plural);
    return type ? this.#service.find(type, namespace, name) : undefined;
  }
}

/** The DNS name a Service's serving certificate must carry: `<service>.<namespace>.svc`. */
export function serviceDnsName(reference: Pick<ServiceReference, "namespace" | "name">): string {
  return `${reference.name}.${reference.namespace}.svc`;
}
