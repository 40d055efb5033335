import type { Logger } from "pino";
import {
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Frozen,
  isNotFound,
  jsonEqual,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  unlessStale,
} from "../../../runtime/index.js";
import type { ControllerContext } from "../controller-context.js";
import {
  type EndpointSlice,
  endpointSliceKind,
  type Pod,
  podKind,
  type Service,
  serviceKind,
} from "../kinds.js";
import { controllerRefTo, controllerUidIndex, ownershipIndexers } from "../ownership/controller-ref.js";
import { trackChildExpectations } from "../ownership/expectation-tracking.js";
import {
  type DesiredSlice,
  desiredSlices,
  groupKeyOf,
  type SliceContent,
  sliceLabels,
} from "./endpoint-slices.js";
import { enqueueServicesOfPods } from "./pod-service-events.js";
import { hasManagedEndpoints, serviceSelects } from "./service-endpoints.js";

/**
 * The EndpointSlice controller (kube's endpointslice controller, simplified): a Service's
 * selected pods as EndpointSlices owned by the Service (so the API server's garbage collector
 * removes them with it). Existing slices of the same address type and ports are updated in
 * place; missing ones created (generated names, covered by expectations); surplus ones deleted.
 */
export function addEndpointSliceController(context: ControllerContext): Controller {
  const { manager, clock } = context;
  const services = manager.informer(serviceKind);
  const pods = manager.informer<Pod>(podKind);
  const slices = manager.informer<EndpointSlice>(endpointSliceKind, { indexers: ownershipIndexers });
  const client = manager.client.resource(endpointSliceKind);
  const expectations = new Expectations({ clock });
  const controller = manager.controller({
    name: "endpointslice",
    workers: context.workers,
    reconcile: (request) => syncService(request),
  });
  controller.watch(services);
  controller.watch(slices, controllerOwnerKey<EndpointSlice>(serviceKind));
  enqueueServicesOfPods(controller, pods, services);
  trackChildExpectations(slices, serviceKind, expectations);

  async function syncService(request: ReconcileRequest): Promise<ReconcileResult | undefined> {
    const service = services.get(request.key);
    if (!service) {
      expectations.delete(request.key);
      return undefined;
    }
    if (!hasManagedEndpoints(service) || service.metadata?.deletionTimestamp) return undefined;
    // Slices we created are not all in the cache yet: their add events will bring us back.
    if (!expectations.satisfied(request.key)) return undefined;
    const selected = pods
      .list({ namespace: request.namespace ?? "" })
      .filter((pod) => serviceSelects(service, pod));
    const existing = slices
      .byIndex(controllerUidIndex, service.metadata?.uid ?? "")
      .filter((slice) => !slice.metadata?.deletionTimestamp);
    const plan = planSlices(service, desiredSlices(service, selected), existing);
    await applySlicePlan({ client, service, key: request.key, plan, expectations, log: request.log });
    return undefined;
  }

  return controller;
}

interface SlicePlan {
  create: SliceContent[];
  update: { slice: Frozen<EndpointSlice>; content: SliceContent }[];
  remove: Frozen<EndpointSlice>[];
}

/** Matches wanted slices to stored ones of the same group, in name order. */
function planSlices(
  service: Frozen<Service>,
  wanted: DesiredSlice[],
  existing: readonly Frozen<EndpointSlice>[],
): SlicePlan {
  const labels = sliceLabels(service);
  const stored = new Map<string, Frozen<EndpointSlice>[]>();
  for (const slice of [...existing].sort((a, b) =>
    (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""),
  )) {
    const key = groupKeyOf(slice);
    stored.set(key, [...(stored.get(key) ?? []), slice]);
  }
  const plan: SlicePlan = { create: [], update: [], remove: [] };
  for (const { group, content } of wanted) {
    const slot = stored.get(group)?.shift();
    if (!slot) plan.create.push(content);
    else if (
      !jsonEqual(slot.endpoints, content.endpoints) ||
      !jsonEqual(slot.ports ?? [], content.ports) ||
      !jsonEqual(slot.metadata?.labels ?? {}, labels)
    )
      plan.update.push({ slice: slot, content });
  }
  for (const leftover of stored.values()) plan.remove.push(...leftover);
  return plan;
}

interface ApplySlicePlan {
  client: ResourceClient<EndpointSlice>;
  service: Frozen<Service>;
  key: string;
  plan: SlicePlan;
  expectations: Expectations;
  log: Logger;
}

async function applySlicePlan({
  client,
  service,
  key,
  plan,
  expectations,
  log,
}: ApplySlicePlan): Promise<void> {
  const labels = sliceLabels(service);
  const namespace = service.metadata?.namespace ?? "";
  expectations.expectDeletionsOf(key, plan.remove.map(objectKey));
  expectations.raise(key, plan.create.length, 0);
  for (const [index, content] of plan.create.entries()) {
    try {
      await client.create({
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        metadata: {
          generateName: `${service.metadata?.name ?? ""}-`,
          namespace,
          labels,
          ownerReferences: [controllerRefTo(service, serviceKind)],
        },
        ...content,
      });
    } catch (error) {
      expectations.lower(key, plan.create.length - index, 0);
      throw error;
    }
  }
  for (const { slice, content } of plan.update) {
    const updated = mutableCopy<EndpointSlice>(slice);
    updated.metadata = { ...updated.metadata, labels };
    updated.endpoints = content.endpoints;
    updated.ports = content.ports;
    await unlessStale(() => client.update(updated), log, "endpoint slice update");
  }
  for (const slice of plan.remove) {
    try {
      await client.delete(
        { namespace, name: slice.metadata?.name ?? "" },
        { preconditions: { uid: slice.metadata?.uid ?? "" } },
      );
    } catch (error) {
      expectations.deletionObservedOf(key, objectKey(slice));
      if (!isNotFound(error)) throw error;
    }
  }
}
