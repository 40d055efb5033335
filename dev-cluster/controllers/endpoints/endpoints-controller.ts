import {
  type Controller,
  type Frozen,
  isNotFound,
  jsonEqual,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  unlessStale,
} from "../../../runtime/index.js";
import type { ControllerContext } from "../controller-context.js";
import { type Endpoints, endpointsKind, type Pod, podKind, type Service, serviceKind } from "../kinds.js";
import { endpointSubsets } from "./endpoint-subsets.js";
import { enqueueServicesOfPods } from "./pod-service-events.js";
import { hasManagedEndpoints, isHeadless, serviceSelects } from "./service-endpoints.js";

const headlessLabel = "service.kubernetes.io/headless";

/**
 * The Endpoints controller (kube's endpoints controller): for each Service with a selector, an
 * Endpoints object of the same name listing the selected pods, ready or not; deleted with the
 * Service. Services without a selector keep the Endpoints their users write.
 */
export function addEndpointsController(context: ControllerContext): Controller {
  const { manager } = context;
  const services = manager.informer(serviceKind);
  const pods = manager.informer<Pod>(podKind);
  const endpoints = manager.informer(endpointsKind);
  const client = manager.client.resource(endpointsKind);
  const controller = manager.controller({
    name: "endpoints",
    workers: context.workers,
    reconcile: (request) => syncService(request),
  });
  controller.watch(services);
  // An Endpoints of a Service edited or deleted by someone else is put back; others are not ours.
  controller.watch(endpoints, (object) => (services.get(objectKey(object)) ? [objectKey(object)] : []));
  enqueueServicesOfPods(controller, pods, services);

  async function syncService(request: ReconcileRequest): Promise<void> {
    const ref = { namespace: request.namespace ?? "", name: request.name };
    const service = services.get(request.key);
    if (!service) {
      if (!endpoints.get(request.key)) return;
      try {
        await client.delete(ref);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      return;
    }
    if (!hasManagedEndpoints(service)) return;
    const selected = pods.list({ namespace: ref.namespace }).filter((pod) => serviceSelects(service, pod));
    const desired = desiredEndpoints(service, selected);
    const current = endpoints.get(request.key);
    if (!current) {
      await client.create(desired);
      return;
    }
    if (
      jsonEqual(current.subsets ?? [], desired.subsets ?? []) &&
      jsonEqual(current.metadata?.labels ?? {}, desired.metadata?.labels ?? {})
    )
      return;
    const updated = mutableCopy<Endpoints>(current);
    updated.metadata = { ...updated.metadata, labels: desired.metadata?.labels ?? {} };
    if (desired.subsets) updated.subsets = desired.subsets;
    else delete updated.subsets;
    await unlessStale(() => client.update(updated), request.log, "endpoints update");
  }

  return controller;
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
