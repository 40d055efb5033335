import { KUBEVIRT_SERVICE_ACCOUNTS } from "../../api/index.js";
import { componentSelector, fieldEnv, httpGetProbe, metricsPort } from "../strategy/container-parts.js";
import { preferSpreadOverNodes } from "../strategy/node-placement.js";
import { COMPONENT_LABEL } from "../strategy/object-metadata.js";

export const VIRT_OPERATOR = "virt-operator";
export const OPERATOR_SERVICE_ACCOUNT = KUBEVIRT_SERVICE_ACCOUNTS.operator;

/**
 * The virt-operator Deployment: two leader-elected replicas. Its image is also what it installs
 * by default: VIRT_OPERATOR_IMAGE tells it its own registry and tag (OperatorIdentity), and
 * POD_NAMESPACE where it, the KubeVirt CR and the components live.
 */
export function renderOperatorDeployment(options: {
  namespace: string;
  image: string;
  labels: Record<string, string>;
}): Record<string, unknown> {
  const podLabels = { [COMPONENT_LABEL]: VIRT_OPERATOR };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name: VIRT_OPERATOR,
      namespace: options.namespace,
      labels: { ...options.labels, ...podLabels },
    },
    spec: {
      replicas: 2,
      selector: componentSelector(COMPONENT_LABEL, VIRT_OPERATOR),
      template: {
        metadata: { labels: podLabels },
        spec: {
          serviceAccountName: OPERATOR_SERVICE_ACCOUNT,
          nodeSelector: { "kubernetes.io/os": "linux" },
          tolerations: [{ key: "CriticalAddonsOnly", operator: "Exists" }],
          affinity: preferSpreadOverNodes(COMPONENT_LABEL, VIRT_OPERATOR),
          securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
          containers: [
            {
              name: VIRT_OPERATOR,
              image: options.image,
              env: [
                { name: "VIRT_OPERATOR_IMAGE", value: options.image },
                fieldEnv("POD_NAMESPACE", "metadata.namespace"),
                // Its health and metrics servers bind the pod IP, as virt-controller's do.
                fieldEnv("POD_IP", "status.podIP"),
              ],
              // https://POD:8443/metrics with kubevirt-operator-certs, which it issues itself.
              ports: [metricsPort()],
              // runtime's health server, plain HTTP on its own port: /readyz once its caches
              // synced, whether or not its certificate exists yet.
              readinessProbe: httpGetProbe("/readyz", { timeoutSeconds: 10 }),
              livenessProbe: httpGetProbe("/healthz", { initialDelaySeconds: 15, timeoutSeconds: 10 }),
              resources: { requests: { cpu: "10m", memory: "150Mi" } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
            },
          ],
        },
      },
    },
  };
}
