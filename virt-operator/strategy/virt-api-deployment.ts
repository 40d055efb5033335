import { componentSelector, fieldEnv, httpsGetProbe, pullPolicy, pullSecrets } from "./container-parts.js";
import type { ManagedObject } from "./install-strategy.js";
import { podPlacement, preferSpreadOverNodes } from "./node-placement.js";
import { COMPONENT_LABEL, managedMetadata, podTemplateLabels } from "./object-metadata.js";
import { PRIORITY_CLASS_NAME } from "./priority-class.js";
import { componentImage, type RenderContext } from "./render-context.js";
import { API_SERVICE_ACCOUNT } from "./service-accounts.js";
import { CONSOLE_SERVER_PORT } from "./virt-handler-daemonset.js";

export const VIRT_API = "virt-api";
/** virt-api's HTTPS port (virt-api/cli-options.ts --port): the API, the webhooks, health and metrics. */
export const VIRT_API_PORT = 8443;

/**
 * virt-api: stateless, so its replicas (KubeVirt's `infra.replicas`, 2 by default) all serve,
 * spread over nodes; it goes where `spec.infra` places the control plane. It reads its
 * certificates from Secrets through the API, so a rotation rolls no pod.
 */
export function renderVirtApiDeployment(context: RenderContext): ManagedObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: managedMetadata(context, VIRT_API, {
      namespaced: true,
      extraLabels: { [COMPONENT_LABEL]: VIRT_API },
    }),
    spec: {
      replicas: context.infraReplicas,
      selector: componentSelector(COMPONENT_LABEL, VIRT_API),
      template: {
        metadata: { labels: podTemplateLabels(VIRT_API) },
        spec: {
          serviceAccountName: API_SERVICE_ACCOUNT,
          priorityClassName: PRIORITY_CLASS_NAME,
          ...podPlacement(context.infraPlacement, preferSpreadOverNodes(COMPONENT_LABEL, VIRT_API)),
          ...pullSecrets(context),
          // It needs no privilege: it talks to the API server and to virt-handler.
          securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
          containers: [
            {
              name: VIRT_API,
              image: componentImage(context, VIRT_API),
              ...pullPolicy(context),
              args: ["--port", String(VIRT_API_PORT), "--console-server-port", String(CONSOLE_SERVER_PORT)],
              // --namespace defaults to $POD_NAMESPACE, --address to $POD_IP.
              env: [fieldEnv("POD_NAMESPACE", "metadata.namespace"), fieldEnv("POD_IP", "status.podIP")],
              ports: [{ name: VIRT_API, containerPort: VIRT_API_PORT, protocol: "TCP" }],
              // server/health-routes.ts on the HTTPS port: /readyz once its serving certificate
              // and caches are in place, /healthz while the process answers. It listens only
              // once its certificate exists, which the operator issues before this Deployment.
              readinessProbe: httpsGetProbe("/readyz", VIRT_API_PORT, { timeoutSeconds: 10 }),
              livenessProbe: httpsGetProbe("/healthz", VIRT_API_PORT, {
                initialDelaySeconds: 15,
                timeoutSeconds: 10,
              }),
              resources: { requests: { cpu: "5m", memory: "150Mi" } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
            },
          ],
        },
      },
    },
  };
}
