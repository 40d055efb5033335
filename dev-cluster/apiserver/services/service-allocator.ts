import { isJsonObject, type JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { ipv4ToNumber, numberToIpv4, type PortRange, parseIpv4Cidr } from "./address-ranges.js";
import { type AllocationPools, allocateServiceFields } from "./service-allocation.js";
import { clusterIpsOf, nodePortsOf, specOf } from "./service-fields.js";

/** The Service every cluster has in `default`, pointing at the API server. */
export const KUBERNETES_SERVICE = { namespace: "default", name: "kubernetes" } as const;

/** Reads the stored Services (in kube's internal version, as stored). */
export type StoredServices = () => JsonObject[];

function nameAndNamespace(object: JsonObject): { namespace: string; name: string } {
  const metadata = isJsonObject(object.metadata) ? object.metadata : {};
  return {
    namespace: typeof metadata.namespace === "string" ? metadata.namespace : "",
    name: typeof metadata.name === "string" ? metadata.name : "",
  };
}

/**
 * Allocates cluster IPs and node ports for Services. It keeps no state of its own: what is in
 * use is read from the stored Services on every allocation, so nothing leaks when a write fails
 * and a restart needs no repair. Writes are synchronous from here to the store's commit, so two
 * allocations never interleave.
 */
export class ServiceAllocator {
  readonly pools: AllocationPools;
  readonly #storedServices: StoredServices;

  constructor(storedServices: StoredServices, serviceCidr: string, nodePorts: PortRange) {
    this.#storedServices = storedServices;
    this.pools = { serviceRange: parseIpv4Cidr(serviceCidr), nodePorts };
  }

  /** The address reserved for the `kubernetes` Service: the range's first. */
  get kubernetesServiceIp(): string {
    return numberToIpv4(this.pools.serviceRange.base + 1);
  }

  /** Fills in the allocated fields of a Service about to be created or updated (see allocateServiceFields). */
  allocate(service: JsonObject): void {
    const self = nameAndNamespace(service);
    const isKubernetesService =
      self.namespace === KUBERNETES_SERVICE.namespace && self.name === KUBERNETES_SERVICE.name;
    const reserved = ipv4ToNumber(this.kubernetesServiceIp) ?? 0;
    const usedIps = new Set<number>(isKubernetesService ? [] : [reserved]);
    const usedNodePorts = new Set<number>();
    let old: JsonObject | undefined;
    for (const stored of this.#storedServices()) {
      const other = nameAndNamespace(stored);
      if (other.namespace === self.namespace && other.name === self.name) {
        old = stored;
        continue;
      }
      const spec = specOf(stored);
      for (const ip of clusterIpsOf(spec)) {
        const value = ipv4ToNumber(ip);
        if (value !== undefined) usedIps.add(value);
      }
      for (const port of nodePortsOf(spec)) usedNodePorts.add(port);
    }
    allocateServiceFields(service, this.pools, { usedIps, usedNodePorts, old });
  }
}

/**
 * The Service resource type with allocation added. ObjectService applies a type's defaults to
 * every object it is about to create or update, just before validation and the commit, which is
 * exactly where kube's Service storage allocates; so allocation rides on `applyDefaults`. The
 * wrapper inherits everything else from `type` (its OpenAPI schema stays lazily built).
 */
export function withServiceAllocation(type: ResourceType, allocator: ServiceAllocator): ResourceType {
  const wrapped = Object.create(type) as ResourceType;
  wrapped.applyDefaults = (object) => {
    type.applyDefaults(object);
    allocator.allocate(object);
  };
  return wrapped;
}
