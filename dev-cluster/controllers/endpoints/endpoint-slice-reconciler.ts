import type { Logger } from "pino";
import {
  CACHE_IS_BEHIND,
  type Expectations,
  type Frozen,
  isNotFound,
  mutableCopy,
  objectKey,
  type ReconcileRequest,
  type ReconcileResult,
  type ResourceClient,
  type SharedInformer,
  unlessStale,
} from "../../../runtime/index.js";
import { type EndpointSlice, type Pod, type Service, serviceKind } from "../kinds.js";
import { controllerRefTo, controllerUidIndex } from "../ownership/controller-ref.js";
import { desiredSlices, sliceLabels } from "./endpoint-slices.js";
import { hasManagedEndpoints, serviceSelects } from "./service-endpoints.js";
import { planSlices, type SlicePlan } from "./slice-plan.js";

export interface EndpointSliceReconcilerDeps {
  services: SharedInformer<Service>;
  pods: SharedInformer<Pod>;
  /** Indexed with ownershipIndexers (a Service's slices are found by its uid). */
  slices: SharedInformer<EndpointSlice>;
  sliceClient: ResourceClient<EndpointSlice>;
  /** Fed by the slices' informer (trackChildExpectations), raised and lowered here. */
  expectations: Expectations;
}

/**
 * One reconcile of one Service's EndpointSlices: the selected pods grouped into the slices they
 * make, matched to the stored slices the Service controls, and the difference written.
 */
export class EndpointSliceReconciler {
  readonly #deps: EndpointSliceReconcilerDeps;

  constructor(deps: EndpointSliceReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(request: ReconcileRequest): Promise<ReconcileResult> {
    const { services, pods, slices, expectations } = this.#deps;
    const service = services.get(request.key);
    if (!service) {
      expectations.delete(request.key);
      return {};
    }
    if (!hasManagedEndpoints(service) || service.metadata?.deletionTimestamp) return {};
    // Slices we created are not all in the cache yet: their add events will bring us back.
    if (!expectations.satisfied(request.key)) return CACHE_IS_BEHIND;
    const selected = pods
      .list({ namespace: request.namespace ?? "" })
      .filter((pod) => serviceSelects(service, pod));
    const existing = slices
      .byIndex(controllerUidIndex, service.metadata?.uid ?? "")
      .filter((slice) => !slice.metadata?.deletionTimestamp);
    const plan = planSlices(service, desiredSlices(service, selected), existing);
    await this.#apply(service, request.key, plan, request.log);
    return {};
  }

  async #apply(service: Frozen<Service>, key: string, plan: SlicePlan, log: Logger): Promise<void> {
    const { sliceClient, expectations } = this.#deps;
    const labels = sliceLabels(service);
    const namespace = service.metadata?.namespace ?? "";
    expectations.expectDeletionsOf(key, plan.remove.map(objectKey));
    expectations.raise(key, plan.create.length, 0);
    for (const [index, content] of plan.create.entries()) {
      try {
        await sliceClient.create({
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
      await unlessStale(() => sliceClient.update(updated), log, "endpoint slice update");
    }
    for (const slice of plan.remove) {
      try {
        await sliceClient.delete(
          { namespace, name: slice.metadata?.name ?? "" },
          { preconditions: { uid: slice.metadata?.uid ?? "" } },
        );
      } catch (error) {
        expectations.deletionObservedOf(key, objectKey(slice));
        if (!isNotFound(error)) throw error;
      }
    }
  }
}
