import type { ManagedObject } from "./install-strategy.js";
import { COMPONENT_LABEL, managedMetadata } from "./object-metadata.js";
import { SUBRESOURCES_GROUP } from "./policy-rule.js";
import type { RenderContext } from "./render-context.js";
import { VIRT_API } from "./virt-api-deployment.js";
import { virtApiServiceReference } from "./virt-api-service.js";

const SUBRESOURCES_VERSION = "v1";

/**
 * The APIService that has the API server proxy `subresources.kubevirt.io/v1` (console, vnc,
 * start/stop...) to virt-api, checking virt-api's certificate against the operator's CA bundle.
 * Priorities as KubeVirt's.
 */
export function renderSubresourcesApiService(context: RenderContext): ManagedObject {
  return {
    apiVersion: "apiregistration.k8s.io/v1",
    kind: "APIService",
    metadata: managedMetadata(context, `${SUBRESOURCES_VERSION}.${SUBRESOURCES_GROUP}`, {
      extraLabels: { [COMPONENT_LABEL]: VIRT_API },
    }),
    spec: {
      group: SUBRESOURCES_GROUP,
      version: SUBRESOURCES_VERSION,
      service: virtApiServiceReference(context),
      caBundle: context.caBundle,
      groupPriorityMinimum: 1000,
      versionPriority: 15,
    },
  };
}
