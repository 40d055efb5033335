import { type Controller, type KubeObject, ownKey, type SharedInformer } from "../../runtime/index.js";
import type { ClusterConfig } from "./cluster-config.js";

/**
 * Makes `controller` follow the KubeVirt CR its decisions read: it starts only once the CR is
 * cached, and a changed CR (defaults, useEmulation, feature gates) can change every decision,
 * so each of `objects` is looked at again.
 */
export function dependOnClusterConfig<T extends KubeObject>(
  controller: Controller,
  config: ClusterConfig,
  objects: SharedInformer<T>,
): void {
  controller.dependsOn(config);
  config.onChange(() => {
    for (const object of objects.list()) for (const key of ownKey(object)) controller.enqueue(key);
  });
}
