import {
  type Frozen,
  isNotFound,
  jsonEqual,
  mutableCopy,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import type { Endpoints, Pod, Service } from "../kinds.js";
import { endpointSubsets } from "./endpoint-subsets.js";
import { hasManagedEndpoints, isHeadless, serviceSelects } from "./service-endpoints.js";

const headlessLabel = "service.kubernetes.io/headless";

export interface EndpointsReconcilerDeps {
  services: SharedInformer<Service>;
  pods: SharedInformer<Pod>;
  endpoints: SharedInformer<Endpoints>;
  endpointsClient: ResourceClient<Endpoints>;
}

/**
 * One reconcile of one Service's Endpoints (kube's endpoints controller's syncService): created
 * or updated to list the selected pods; deleted once the Service is gone. The name is the
 * Service's, so a create the cache has not shown yet is refused as AlreadyExists and retried.
 */
export class EndpointsReconciler {
  readonly #deps: EndpointsReconcilerDeps;

  constructor(deps: EndpointsReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { services, pods, endpoints, endpointsClient } = this.#deps;
    const ref = { namespace: request.namespace ?? "", name: request.name };
    const service = services.get(request.key);
    if (!service) {
      if (!endpoints.get(request.key)) return {};
      try {
        await endpointsClient.delete(ref);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      return {};
    }
    if (!hasManagedEndpoints(service)) return {};
    const selected = pods.list({ namespace: ref.namespace }).filter((pod) => serviceSelects(service, pod));
    const desired = desiredEndpoints(service, selected);
    const current = endpoints.get(request.key);
    if (!current) {
      await endpointsClient.create(desired);
      return {};
    }
    if (
      jsonEqual(current.subsets ?? [], desired.subsets ?? []) &&
      jsonEqual(current.metadata?.labels ?? {}, desired.metadata?.labels ?? {})
    )
      return {};
    const updated = mutableCopy<Endpoints>(current);
    updated.metadata = { ...updated.metadata, labels: desired.metadata?.labels ?? {} };
    if (desired.subsets) updated.subsets = desired.subsets;
    else delete updated.subsets;
    await unlessStale(() => endpointsClient.update(updated), request.log, "endpoints update");
    return {};
  }
}

function desiredEndpoints(service: Frozen<Service>, pods: readonly Frozen<Pod>[]): Endpoints {
  const labels: Record<string, string> = { ...(service.metadata?.labels ?? {}) };
  if (isHeadless(service)) labels[headlessLabel] = "";
  else delete labels[headlessLabel];
  const subsets = endpointSubsets(service, pods);
  return {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: {
      name: service.metadata?.name ?? "",
      namespace: service.metadata?.namespace ?? "",
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
    },
    ...(subsets.length > 0 ? { subsets } : {}),
  };
}
