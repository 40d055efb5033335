import type { ManagedObject } from "./install-strategy.js";
import { managedMetadata } from "./object-metadata.js";
import type { RenderContext } from "./render-context.js";

/** KubeVirt's PriorityClass for its own pods: below system-cluster-critical, above any workload. */
export const PRIORITY_CLASS_NAME = "kubevirt-cluster-critical";
const PRIORITY_VALUE = 1_000_000_000;

export function renderPriorityClass(context: RenderContext): ManagedObject {
  return {
    apiVersion: "scheduling.k8s.io/v1",
    kind: "PriorityClass",
    metadata: managedMetadata(context, PRIORITY_CLASS_NAME),
    value: PRIORITY_VALUE,
    description: "This priority class should be used for core kubevirt components only.",
  };
}
