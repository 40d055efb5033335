import type { ManagedObject } from "./install-strategy.js";
import { COMPONENT_LABEL, managedMetadata } from "./object-metadata.js";
import type { RenderContext } from "./render-context.js";
import { VIRT_API, VIRT_API_PORT } from "./virt-api-deployment.js";

/** The Service port the APIService and the webhooks name (KubeVirt's). */
export const VIRT_API_SERVICE_PORT = 443;

/** Service `virt-api`: what the API server's aggregation layer and admission webhooks dial. */
export function renderVirtApiService(context: RenderContext): ManagedObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: managedMetadata(context, VIRT_API, {
      namespaced: true,
      extraLabels: { [COMPONENT_LABEL]: VIRT_API },
    }),
    spec: {
      selector: { [COMPONENT_LABEL]: VIRT_API },
      // The protocol is a key of the ports list: a 1.20 API server's apply refuses a port without it.
      ports: [{ port: VIRT_API_SERVICE_PORT, targetPort: VIRT_API_PORT, protocol: "TCP" }],
    },
  };
}

/** How an APIService or a webhook names the Service (a webhook adds its path). */
export function virtApiServiceReference(context: RenderContext): Record<string, unknown> {
  return { namespace: context.namespace, name: VIRT_API, port: VIRT_API_SERVICE_PORT };
}
