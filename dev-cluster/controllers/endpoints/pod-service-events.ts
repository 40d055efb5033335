import { type Controller, type Frozen, objectKey, type SharedInformer } from "../../../runtime/index.js";
import type { Pod, Service } from "../kinds.js";
import { serviceSelects } from "./service-endpoints.js";

/**
 * Enqueues the Services a pod change concerns: those selecting the pod before or after it (a
 * relabelled pod leaves one Service and joins another). Returns the function that stops it.
 */
export function enqueueServicesOfPods(
  controller: Controller,
  pods: SharedInformer<Pod>,
  services: SharedInformer<Service>,
): () => void {
  controller.dependsOn(pods);
  const enqueue = (...changed: Frozen<Pod>[]): void => {
    const keys = new Set<string>();
    for (const pod of changed) {
      for (const service of services.list({ namespace: pod.metadata?.namespace ?? "" })) {
        if (serviceSelects(service, pod)) keys.add(objectKey(service));
      }
    }
    for (const key of keys) controller.enqueue(key);
  };
  return pods.addEventHandler({
    onAdd: (pod) => enqueue(pod),
    onUpdate: (previous, current) => {
      if (previous.metadata?.resourceVersion !== current.metadata?.resourceVersion)
        enqueue(previous, current);
    },
    onDelete: (pod) => enqueue(pod),
  });
}
