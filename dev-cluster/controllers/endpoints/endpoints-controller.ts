import { type Controller, type Manager, objectKey } from "../../../runtime/index.js";
import type { ControllerSettings } from "../controller-settings.js";
import { endpointsKind, type Pod, podKind, serviceKind } from "../kinds.js";
import { EndpointsReconciler } from "./endpoints-reconciler.js";
import { enqueueServicesOfPods } from "./pod-service-events.js";

/**
 * The Endpoints controller (kube's endpoints controller): for each Service with a selector, an
 * Endpoints object of the same name listing the selected pods, ready or not; deleted with the
 * Service. Services without a selector keep the Endpoints their users write.
 */
export function addEndpointsController(manager: Manager, settings: ControllerSettings): Controller {
  const services = manager.informer(serviceKind);
  const pods = manager.informer<Pod>(podKind);
  const endpoints = manager.informer(endpointsKind);
  const reconciler = new EndpointsReconciler({
    services,
    pods,
    endpoints,
    endpointsClient: manager.client.resource(endpointsKind),
  });
  const controller = manager.controller({
    name: "endpoints",
    workers: settings.workers,
    reconcile: (request) => reconciler.reconcile(request),
  });
  controller.watch(services);
  // An Endpoints of a Service edited or deleted by someone else is put back; others are not ours.
  controller.watch(endpoints, (object) => (services.get(objectKey(object)) ? [objectKey(object)] : []));
  enqueueServicesOfPods(controller, pods, services);
  return controller;
}
