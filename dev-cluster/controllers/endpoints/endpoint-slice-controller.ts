import {
  type Controller,
  controllerOwnerKey,
  Expectations,
  type Manager,
  trackChildExpectations,
} from "../../../runtime/index.js";
import type { ControllerSettings } from "../controller-settings.js";
import { type EndpointSlice, endpointSliceKind, type Pod, podKind, serviceKind } from "../kinds.js";
import { ownershipIndexers } from "../ownership/controller-ref.js";
import { EndpointSliceReconciler } from "./endpoint-slice-reconciler.js";
import { enqueueServicesOfPods } from "./pod-service-events.js";

/**
 * The EndpointSlice controller (kube's endpointslice controller, simplified): a Service's
 * selected pods as EndpointSlices owned by the Service (so the API server's garbage collector
 * removes them with it). Existing slices of the same address type and ports are updated in
 * place; missing ones created (generated names, covered by expectations); surplus ones deleted.
 */
export function addEndpointSliceController(manager: Manager, settings: ControllerSettings): Controller {
  const services = manager.informer(serviceKind);
  const pods = manager.informer<Pod>(podKind);
  const slices = manager.informer<EndpointSlice>(endpointSliceKind, { indexers: ownershipIndexers });
  const expectations = new Expectations({ clock: settings.clock });
  const reconciler = new EndpointSliceReconciler({
    services,
    pods,
    slices,
    sliceClient: manager.client.resource(endpointSliceKind),
    expectations,
  });
  const controller = manager.controller({
    name: "endpointslice",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(services);
  controller.watch(slices, controllerOwnerKey<EndpointSlice>(serviceKind));
  enqueueServicesOfPods(controller, pods, services);
  trackChildExpectations(slices, serviceKind, expectations);
  return controller;
}
